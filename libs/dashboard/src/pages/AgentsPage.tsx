import { useState } from 'react';
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { AgentSummary, TenantSettings } from '../api';
import { when } from '../format';
import { useRpc } from '../session';
import { PageNav, QueryState } from './common';

/** Agents per page: agents/list answers one page with the tenant's total. */
const AGENTS_PAGE = 30;

/** The tenant's agents (agents/list: profile, counts and last activity in one call), and its memory switch. */
export function AgentsPage() {
  const call = useRpc();
  const [page, setPage] = useState(1);
  const agents = useQuery({
    queryKey: ['agents', page],
    queryFn: () =>
      call<{ agents: AgentSummary[]; total: string }>('agents/list', {
        limit: AGENTS_PAGE,
        offset: (page - 1) * AGENTS_PAGE,
      }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.ceil(Number(agents.data?.total ?? 0) / AGENTS_PAGE);

  return (
    <Stack>
      <Title order={2}>Agents</Title>
      <MemorySwitch />
      <QueryState loading={agents.isPending} error={agents.error} what="agents" />
      {agents.data && agents.data.agents.length === 0 && (
        <Text>This tenant has no agents with memory yet.</Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {(agents.data?.agents ?? []).map((agent) => (
          <AgentCard key={agent.agent} summary={agent} />
        ))}
      </SimpleGrid>
      <PageNav label="Pages of agents" pages={pages} page={page} onChange={setPage} />
    </Stack>
  );
}

/** "1 fact", "2 facts" (counts come as protobuf JSON strings). */
const counted = (n: string, what: string) => `${n} ${what}${n === '1' ? '' : 's'}`;

function AgentCard({ summary }: { summary: AgentSummary }) {
  const { agent, profile } = summary;
  return (
    <Card withBorder component="article" aria-labelledby={`agent-${agent}`} data-agent={agent}>
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
        {!profile && <Text size="sm">No profile stored.</Text>}
        <Text size="sm" data-testid="agent-counts">
          {[
            counted(summary.messages, 'message'),
            counted(summary.conversations, 'conversation'),
            counted(summary.openFacts, 'fact'),
            counted(summary.sceneNodes, 'scene node'),
          ].join(' · ')}
        </Text>
        <Text size="sm">Last activity: {when(summary.lastMessageAt)}</Text>
      </Stack>
    </Card>
  );
}

/** The tenant's memoryEnabled setting (tenant/settings/get and set), as a labelled switch. */
function MemorySwitch() {
  const call = useRpc();
  const queries = useQueryClient();
  const settings = useQuery({
    queryKey: ['tenant-settings'],
    queryFn: () => call<TenantSettings>('tenant/settings/get', {}),
  });
  const set = useMutation({
    mutationFn: (memoryEnabled: boolean) => call<TenantSettings>('tenant/settings/update', { memoryEnabled }),
    onSuccess: (answer) => queries.setQueryData(['tenant-settings'], answer),
  });
  return (
    <Card withBorder component="section" aria-labelledby="memory-title">
      <Title order={3} size="h4" id="memory-title">
        Memory for this tenant
      </Title>
      <QueryState loading={settings.isPending} error={settings.error} what="the tenant’s settings" />
      {settings.data && (
        <Switch
          mt="xs"
          label="Derive memory from conversations"
          description="When off, nothing is derived from new messages (no facts, state or summaries); every message is still kept in the transcript."
          checked={settings.data.memoryEnabled}
          disabled={set.isPending}
          // Mantine's dimmed description is too faint on white (axe: color-contrast).
          styles={{ description: { color: 'var(--mantine-color-text)' } }}
          onChange={(event) => set.mutate(event.currentTarget.checked)}
        />
      )}
      {set.error && <QueryState loading={false} error={set.error} what="the setting" />}
    </Card>
  );
}
