import { useState } from 'react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Conversation } from '../api';
import { when } from '../format';
import { useRpc } from '../session';
import { QueryState } from './common';

/** Conversations a page shows at once. */
const PAGE = 20;

/** Whether the conversation holds every typed word, as conversations.list's query matches. */
function matches(c: Conversation, typed: string): boolean {
  const haystack = [c.title, c.agent, c.sessionKey, c.channel].join(' ').toLowerCase();
  return typed
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

/**
 * The tenant's conversations, newest activity first, a page at a time; the search box asks
 * conversations.list for those whose title, agent, session key or channel hold every word.
 */
export function ConversationsPage() {
  const call = useRpc();
  const [typed, setTyped] = useState('');
  // Ask once the typing pauses, not on every key.
  const [query] = useDebouncedValue(typed.trim(), 250);
  const [pageOf, setPageOf] = useState({ query: '', page: 0 });
  // A new query starts again at its first page.
  const page = pageOf.query === query ? pageOf.page : 0;
  const conversations = useQuery({
    queryKey: ['conversations', query, page],
    queryFn: () =>
      call<{ conversations: Conversation[]; total: string }>('conversations/list', {
        query,
        newestFirst: true,
        limit: PAGE,
        offset: page * PAGE,
      }),
    placeholderData: keepPreviousData,
  });
  const total = Number(conversations.data?.total ?? 0);
  const pages = Math.max(1, Math.ceil(total / PAGE));
  // The page at hand narrows at once as one types; the server's answer for the words follows.
  const shown = (conversations.data?.conversations ?? []).filter((c) => matches(c, typed.trim()));
  const go = (to: number) => setPageOf({ query, page: to });
  return (
    <Stack>
      <Title order={2}>Conversations</Title>
      <TextInput
        type="search"
        label="Search conversations (title, agent, session or channel)"
        value={typed}
        onChange={(e) => setTyped(e.currentTarget.value)}
      />
      <QueryState loading={conversations.isPending} error={conversations.error} what="conversations" />
      {conversations.data && (
        <Text size="sm" role="status">
          {shown.length === 0
            ? 'No conversations.'
            : `${total} ${total === 1 ? 'conversation' : 'conversations'}${query ? ` matching “${query}”` : ''}, page ${page + 1} of ${pages}`}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {shown.map((c) => (
          <Card key={c.id} withBorder component="article">
            <Anchor component={Link} to={`/conversations/${encodeURIComponent(c.id)}`} fw={600}>
              {c.title || c.sessionKey || `Conversation ${c.id}`}
            </Anchor>
            <Text size="sm">
              Agent {c.agent} · session {c.sessionKey} · {c.channel || 'no channel'} · {c.messageCount}{' '}
              messages
            </Text>
            <Text size="sm">Last message: {when(c.lastMessageAt)}</Text>
          </Card>
        ))}
      </SimpleGrid>
      {pages > 1 && (
        <Group component="nav" aria-label="Pages of conversations">
          <Button variant="default" disabled={page === 0} onClick={() => go(page - 1)}>
            Previous page
          </Button>
          <Button variant="default" disabled={page + 1 >= pages} onClick={() => go(page + 1)}>
            Next page
          </Button>
        </Group>
      )}
    </Stack>
  );
}
