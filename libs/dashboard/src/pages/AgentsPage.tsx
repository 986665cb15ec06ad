import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError, type AgentProfile, type Conversation, type Fact } from '../api';
import { when } from '../format';
import { useRpc } from '../session';
import { QueryState } from './common';

interface Stats {
  messages: string;
  factsByCategory: Record<string, string>;
}

/** The tenant's agents: every agent its conversations or facts name, with profile, counts and last activity. */
export function AgentsPage() {
  const call = useRpc();
  const conversations = useQuery({
    queryKey: ['conversations'],
    queryFn: () => call<{ conversations: Conversation[] }>('conversations/list', { limit: 1000 }),
  });
  const facts = useQuery({
    queryKey: ['facts', 'all'],
    queryFn: () => call<{ facts: Fact[] }>('facts/list', { limit: 1000 }),
  });
  const agents = [
    ...new Set([
      ...(conversations.data?.conversations ?? []).map((c) => c.agent),
      ...(facts.data?.facts ?? []).map((f) => f.agent),
    ]),
  ].sort();
  const profiles = useQueries({
    queries: agents.map((agent) => ({
      queryKey: ['agent', agent],
      queryFn: () =>
        call<AgentProfile>('agent/get', { agent }).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null; // no profile stored
          throw error;
        }),
    })),
  });
  const stats = useQueries({
    queries: agents.map((agent) => ({
      queryKey: ['stats', agent],
      queryFn: () => call<Stats>('stats', { agent }),
    })),
  });

  return (
    <Stack>
      <Title order={2}>Agents</Title>
      <QueryState
        loading={conversations.isPending || facts.isPending}
        error={conversations.error ?? facts.error}
        what="agents"
      />
      {!conversations.isPending && !facts.isPending && agents.length === 0 && (
        <Text>This tenant has no agents with memory yet.</Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {agents.map((agent, i) => {
          const profile = profiles[i]?.data ?? null;
          const counts = stats[i]?.data;
          const own = (conversations.data?.conversations ?? []).filter((c) => c.agent === agent);
          const last = own
            .map((c) => c.lastMessageAt ?? '')
            .sort()
            .at(-1);
          const openFacts = Object.values(counts?.factsByCategory ?? {}).reduce((n, v) => n + Number(v), 0);
          return (
            <Card key={agent} withBorder component="article" aria-labelledby={`agent-${agent}`}>
              <Title order={3} size="h4" id={`agent-${agent}`}>
                <Anchor component={Link} to={`/agents/${encodeURIComponent(agent)}`}>
                  {profile?.name ? `${profile.name} (${agent})` : agent}
                </Anchor>
              </Title>
              <Stack gap={4} mt="xs">
                {profile?.job && <Text size="sm">Job: {profile.job}</Text>}
                {profile?.personality && (
                  <Text size="sm" lineClamp={2}>
                    Personality: {profile.personality}
                  </Text>
                )}
                {profile?.model && <Text size="sm">Model: {profile.model}</Text>}
                {(profile?.tools.length ?? 0) > 0 && (
                  <Group gap={4}>
                    <Text size="sm">Tools:</Text>
                    {profile!.tools.map((tool) => (
                      <Badge key={tool} variant="outline" size="sm">
                        {tool}
                      </Badge>
                    ))}
                  </Group>
                )}
                {!profile && !profiles[i]?.isPending && <Text size="sm">No profile stored.</Text>}
                <Text size="sm">
                  {counts ? `${counts.messages} messages · ${openFacts} facts · ` : ''}
                  {own.length} conversations
                </Text>
                <Text size="sm">Last activity: {when(last || undefined)}</Text>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
