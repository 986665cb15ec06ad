import { useEffect, useId, useLayoutEffect, useRef } from 'react';
import { Anchor, Badge, Box, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import type { BrowsePage, Compaction, TranscriptMessage } from '../api';
import { when } from '../format';
import { useRpc } from '../session';
import { QueryState } from './common';
import { SummaryTree } from './SummaryTree';

/** Messages one browse page holds. */
const PAGE = 50;

/** Where a page of the transcript starts: a cursor browse returned, or the first page (null). */
type PageParam = { cursor: string } | null;

/** A conversation's summary tree, its session compactions, then its transcript. */
export function ConversationPage() {
  const conversationId = useParams().conversationId ?? '';
  const around = useSearchParams()[0].get('around') ?? '';
  return (
    <Stack>
      <Title order={2}>Conversation {conversationId}</Title>
      <SummaryTree conversationId={conversationId} />
      <Compactions conversationId={conversationId} />
      <Transcript key={`${conversationId}:${around}`} conversationId={conversationId} around={around} />
    </Stack>
  );
}

/**
 * The transcript in a scrolling box: it opens at the newest messages (or around the one linked
 * to) and reads older pages as the reader scrolls up to the top (or presses "Load older
 * messages"), newer ones likewise at the bottom, through browse's cursors.
 */
function Transcript({ conversationId, around }: { conversationId: string; around: string }) {
  const call = useRpc();
  const headingId = useId();
  const box = useRef<HTMLDivElement>(null);
  const older = useRef<HTMLButtonElement>(null);
  const transcript = useInfiniteQuery({
    queryKey: ['browse', conversationId, around],
    initialPageParam: null as PageParam,
    queryFn: ({ pageParam }) =>
      call<BrowsePage>('browse', {
        conversationId,
        limit: PAGE,
        ...(pageParam
          ? { cursor: pageParam.cursor }
          : around
            ? { aroundMessageId: around }
            : { direction: 'backward' }),
      }),
    getPreviousPageParam: (first): PageParam => (first.prevCursor ? { cursor: first.prevCursor } : null),
    getNextPageParam: (last): PageParam => (last.nextCursor ? { cursor: last.nextCursor } : null),
  });
  const { fetchPreviousPage, hasPreviousPage, isFetchingPreviousPage } = transcript;
  const pages = transcript.data?.pages ?? [];
  const messages = pages.flatMap((p) => p.messages);

  // Opened at the newest messages: start scrolled to the bottom of the box.
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || pages.length === 0 || !box.current) return;
    opened.current = true;
    if (!around) box.current.scrollTop = box.current.scrollHeight;
  }, [pages.length, around]);

  // Older messages are put above: keep in view what the reader was looking at.
  const heightBefore = useRef<number | null>(null);
  const loadOlder = () => {
    if (!box.current || !hasPreviousPage || isFetchingPreviousPage) return;
    heightBefore.current = box.current.scrollHeight;
    void fetchPreviousPage();
  };
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || heightBefore.current === null || isFetchingPreviousPage) return;
    el.scrollTop += el.scrollHeight - heightBefore.current;
    heightBefore.current = null;
  }, [pages.length, isFetchingPreviousPage]);

  // Scrolled up to the top: read the older page. Observed anew after each page, so a page too
  // short to push the button out of view is followed by the next one.
  const loadOlderRef = useRef(loadOlder);
  loadOlderRef.current = loadOlder;
  useEffect(() => {
    if (!box.current || !older.current || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadOlderRef.current();
      },
      { root: box.current },
    );
    observer.observe(older.current);
    return () => observer.disconnect();
  }, [pages.length, hasPreviousPage]);

  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Title order={3} id={headingId}>
        Transcript
      </Title>
      <QueryState loading={transcript.isPending} error={transcript.error} what="the transcript" />
      {transcript.isSuccess && messages.length === 0 && <Text size="sm">No messages.</Text>}
      {messages.length > 0 && (
        <Box
          ref={box}
          // A scrolling region the keyboard can reach and scroll.
          tabIndex={0}
          role="region"
          aria-label="Transcript messages, oldest at the top"
          style={{
            maxHeight: '70vh',
            overflowY: 'auto',
            overflowAnchor: 'none',
            border: '1px solid var(--mantine-color-gray-4)',
            borderRadius: 'var(--mantine-radius-sm)',
            padding: 'var(--mantine-spacing-xs)',
          }}
        >
          {hasPreviousPage ? (
            <Group justify="center" mb="xs">
              <Button
                ref={older}
                variant="subtle"
                size="compact-sm"
                loading={isFetchingPreviousPage}
                onClick={loadOlder}
              >
                Load older messages
              </Button>
            </Group>
          ) : (
            <Text size="sm" ta="center" mb="xs">
              Start of the conversation
            </Text>
          )}
          <Stack
            gap="xs"
            component="ol"
            aria-label="Transcript"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {messages.map((message) => (
              <Message key={message.id} message={message} highlighted={message.id === around} />
            ))}
          </Stack>
          {transcript.hasNextPage && (
            <Group justify="center" mt="xs">
              <Button
                variant="subtle"
                size="compact-sm"
                loading={transcript.isFetchingNextPage}
                onClick={() => void transcript.fetchNextPage()}
              >
                Load newer messages
              </Button>
            </Group>
          )}
        </Box>
      )}
    </Stack>
  );
}

/** One message: a tool call shown as a call (name and arguments), synthesised content marked. */
function Message({ message, highlighted }: { message: TranscriptMessage; highlighted: boolean }) {
  const card = useRef<HTMLLIElement>(null);
  useEffect(() => {
    // Linked to from a fact or a summary leaf: the reader came for this message.
    if (highlighted) card.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);
  return (
    <Card
      ref={card}
      component="li"
      withBorder
      data-message-id={message.id}
      aria-current={highlighted ? 'true' : undefined}
      style={highlighted ? { borderColor: 'var(--mantine-color-blue-7)', borderWidth: 2 } : undefined}
    >
      <Group gap="xs">
        <Badge variant="light">{message.role}</Badge>
        {message.author && <Text size="sm">{message.author}</Text>}
        <Text size="sm">{when(message.createdAt)}</Text>
        {message.contentSynthesised && (
          <Badge color="grape" variant="outline">
            synthesised
          </Badge>
        )}
      </Group>
      {message.content && (
        <Text mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {message.content}
        </Text>
      )}
      {message.toolName && (
        <>
          <Text size="sm" fw={600} mt={4}>
            Tool call
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {`${message.toolName}(${JSON.stringify(message.toolArgs ?? {})})`}
            {message.toolResult !== undefined && message.toolResult !== null
              ? `\n→ ${JSON.stringify(message.toolResult)}`
              : ''}
          </Code>
        </>
      )}
    </Card>
  );
}

/**
 * The conversation's session compactions (mem.rpc.compactions.list), oldest first: each step's
 * rolling summary, the messages it compacted (linked into the transcript), tokens and model.
 */
function Compactions({ conversationId }: { conversationId: string }) {
  const call = useRpc();
  const headingId = useId();
  const compactions = useQuery({
    queryKey: ['compactions/list', conversationId],
    queryFn: () => call<{ compactions: Compaction[] }>('compactions/list', { conversationId }),
  });
  const steps = compactions.data?.compactions ?? [];
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Title order={3} id={headingId}>
        Session compactions
      </Title>
      <QueryState loading={compactions.isPending} error={compactions.error} what="the compactions" />
      {compactions.isSuccess && steps.length === 0 && (
        <Text size="sm">No compactions: this session never outgrew its model’s window.</Text>
      )}
      {steps.length > 0 && (
        <Stack
          component="ol"
          gap="xs"
          aria-labelledby={headingId}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {steps.map((step, i) => (
            <Card component="li" withBorder padding="xs" key={step.id} data-compaction-id={step.id}>
              <Group gap="xs">
                <Badge variant="light">{i === steps.length - 1 ? 'in use' : `step ${i + 1}`}</Badge>
                <Text size="sm">
                  {step.messageCount} {step.messageCount === 1 ? 'message' : 'messages'} ·{' '}
                  {step.compactedTokens} tokens into {step.tokenEstimate} · {step.model} ·{' '}
                  {when(step.createdAt)}
                </Text>
              </Group>
              <Text mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {step.content}
              </Text>
              <Text size="sm" mt={4}>
                Covers {when(step.earliestAt)} – {when(step.latestAt)}; this step compacted{' '}
                {step.firstMessageId && (
                  <>
                    <MessageLink conversationId={conversationId} messageId={step.firstMessageId} /> to{' '}
                  </>
                )}
                <MessageLink conversationId={conversationId} messageId={step.lastMessageId} />
              </Text>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** A link to a message of the conversation, shown in its transcript. */
function MessageLink({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  return (
    <Anchor component={Link} to={`/conversations/${encodeURIComponent(conversationId)}?around=${messageId}`}>
      message {messageId}
    </Anchor>
  );
}
