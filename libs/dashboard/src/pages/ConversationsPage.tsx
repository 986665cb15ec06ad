import { useState } from 'react';
import { Anchor, Card, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Conversation } from '../api';
import { when } from '../format';
import { useRpc } from '../session';
import { QueryState } from './common';

/** Whether a conversation matches the words typed in the filter (id, agent, session, channel, title). */
function matches(conversation: Conversation, filter: string): boolean {
  const haystack = [
    conversation.id,
    conversation.agent,
    conversation.sessionKey,
    conversation.channel,
    conversation.title,
  ]
    .join(' ')
    .toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

/** The tenant's conversations, newest activity first, filtered as one types. */
export function ConversationsPage() {
  const call = useRpc();
  const [filter, setFilter] = useState('');
  const conversations = useQuery({
    queryKey: ['conversations'],
    queryFn: () => call<{ conversations: Conversation[] }>('conversations/list', { limit: 1000 }),
  });
  const shown = (conversations.data?.conversations ?? [])
    .filter((c) => matches(c, filter.trim()))
    .sort((a, b) => (b.lastMessageAt ?? '').localeCompare(a.lastMessageAt ?? ''));
  return (
    <Stack>
      <Title order={2}>Conversations</Title>
      <TextInput
        label="Search conversations (agent, session, channel or title)"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
      />
      <QueryState loading={conversations.isPending} error={conversations.error} what="conversations" />
      {conversations.data && shown.length === 0 && <Text>No conversations.</Text>}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {shown.map((c) => (
          <Card key={c.id} withBorder component="article">
            <Anchor component={Link} to={`/conversations/${encodeURIComponent(c.id)}`} fw={600}>
              {c.title || c.sessionKey || `Conversation ${c.id}`}
            </Anchor>
            <Text size="sm">
              Agent {c.agent} · {c.channel || 'no channel'} · {c.messageCount} messages
            </Text>
            <Text size="sm">Last message: {when(c.lastMessageAt)}</Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
