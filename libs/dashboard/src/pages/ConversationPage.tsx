import { useEffect, useRef } from 'react';
import { Badge, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import type { TranscriptMessage } from '../api';
import { when } from '../format';
import { useRpc } from '../session';
import { QueryState } from './common';
import { SummaryTree } from './SummaryTree';

/**
 * A conversation's summary tree, then its transcript (a page of up to 500 messages, around one
 * when linked to it, which is scrolled into view).
 */
export function ConversationPage() {
  const conversationId = useParams().conversationId ?? '';
  const around = useSearchParams()[0].get('around') ?? '';
  const call = useRpc();
  const transcript = useQuery({
    queryKey: ['browse', conversationId, around],
    queryFn: () =>
      call<{ messages: TranscriptMessage[] }>('browse', {
        conversationId,
        limit: 500,
        ...(around ? { aroundMessageId: around } : {}),
      }),
  });
  return (
    <Stack>
      <Title order={2}>Conversation {conversationId}</Title>
      <SummaryTree conversationId={conversationId} />
      <Title order={3}>Transcript</Title>
      <QueryState loading={transcript.isPending} error={transcript.error} what="the transcript" />
      <Stack
        gap="xs"
        component="ol"
        aria-label="Transcript"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {(transcript.data?.messages ?? []).map((message) => (
          <Message key={message.id} message={message} highlighted={message.id === around} />
        ))}
      </Stack>
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
