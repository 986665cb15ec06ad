import { useId, useState } from 'react';
import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { SearchHit } from '../api';
import { when } from '../format';
import { useRpc } from '../session';
import { summaryForest, summaryLevel, type SummaryBranch, type SummaryNode } from '../summary-tree';
import { QueryState } from './common';

const NESTED_LIST = {
  listStyle: 'none',
  margin: 0,
  paddingLeft: 'var(--mantine-spacing-sm)',
  borderLeft: '2px solid var(--mantine-color-gray-4)',
} as const;

/**
 * A conversation's summary tree (mem.rpc.summaries.list): roots over branches over leaves, as
 * nested lists whose disclosure buttons open and close a node's children or a leaf's messages.
 */
export function SummaryTree({ conversationId }: { conversationId: string }) {
  const call = useRpc();
  const headingId = useId();
  const tree = useQuery({
    queryKey: ['summaries/tree', conversationId],
    queryFn: () => call<{ summaries: SummaryNode[] }>('summaries/list', { conversationId }),
  });
  const forest = summaryForest(tree.data?.summaries ?? []);
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Title order={3} id={headingId}>
        Summary tree
      </Title>
      <QueryState loading={tree.isPending} error={tree.error} what="the summary tree" />
      {tree.isSuccess && forest.length === 0 && (
        <Text size="sm">No summaries yet: this conversation has not been summarised.</Text>
      )}
      {forest.length > 0 && (
        <Stack
          component="ul"
          gap="xs"
          aria-labelledby={headingId}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {forest.map((branch) => (
            <SummaryItem key={branch.node.id} branch={branch} conversationId={conversationId} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** One summary: its level, span and content; a parent's children open by default, a leaf's messages on demand. */
function SummaryItem({ branch, conversationId }: { branch: SummaryBranch; conversationId: string }) {
  const { node, children } = branch;
  const level = summaryLevel(node.depth);
  const [open, setOpen] = useState(level !== 'leaf');
  const contentsId = useId();
  const count = Number(node.messageCount);
  const isLeaf = level === 'leaf';
  return (
    <li data-summary-id={node.id} data-level={level}>
      <Card withBorder padding="xs">
        <Group gap="xs">
          <Badge variant="light">{level}</Badge>
          <Text size="sm">
            {when(node.earliestAt)} – {when(node.latestAt)} · {count} {count === 1 ? 'message' : 'messages'}
          </Text>
        </Group>
        <Text mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {node.content}
        </Text>
        {(isLeaf ? node.messageIds.length > 0 : children.length > 0) && (
          <Group mt={4}>
            <Button
              variant="subtle"
              size="compact-sm"
              aria-expanded={open}
              aria-controls={contentsId}
              onClick={() => setOpen((o) => !o)}
            >
              {isLeaf
                ? `${open ? 'Hide' : 'Show'} source messages`
                : `${open ? 'Hide' : 'Show'} ${children.length} ${children.length === 1 ? 'summary' : 'summaries'} below`}
            </Button>
          </Group>
        )}
      </Card>
      {open && !isLeaf && (
        <Stack id={contentsId} component="ul" gap="xs" mt="xs" style={NESTED_LIST}>
          {children.map((child) => (
            <SummaryItem key={child.node.id} branch={child} conversationId={conversationId} />
          ))}
        </Stack>
      )}
      {open && isLeaf && (
        <SourceMessages id={contentsId} summaryId={node.id} conversationId={conversationId} />
      )}
    </li>
  );
}

/** A leaf's source messages in its order (mem.rpc.expand one level down), each linked into the transcript. */
function SourceMessages({
  id,
  summaryId,
  conversationId,
}: {
  id: string;
  summaryId: string;
  conversationId: string;
}) {
  const call = useRpc();
  const recall = useQuery({
    queryKey: ['expand', `summary:${summaryId}`],
    queryFn: () => call<{ items: SearchHit[] }>('expand', { refs: [`summary:${summaryId}`], depth: 1 }),
  });
  const messages = (recall.data?.items ?? []).filter((item) => item.kind === 'message');
  return (
    <div id={id}>
      <QueryState loading={recall.isPending} error={recall.error} what="the source messages" />
      {recall.isSuccess && (
        <Stack
          component="ol"
          gap="xs"
          mt="xs"
          aria-label={`Source messages of summary ${summaryId}`}
          style={NESTED_LIST}
        >
          {messages.map((message) => (
            <Card component="li" withBorder padding="xs" key={message.id} data-message-id={message.id}>
              <Group gap="xs">
                {message.provenance?.role && <Badge variant="light">{message.provenance.role}</Badge>}
                {message.provenance?.author && <Text size="sm">{message.provenance.author}</Text>}
                <Text size="sm">{when(message.createdAt)}</Text>
              </Group>
              <Text mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {message.content}
              </Text>
              <Anchor
                size="sm"
                component={Link}
                to={`/conversations/${encodeURIComponent(conversationId)}?around=${message.id}`}
              >
                Show message {message.id} in the transcript
              </Anchor>
            </Card>
          ))}
        </Stack>
      )}
    </div>
  );
}
