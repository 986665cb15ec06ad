import { useDeferredValue, useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Timeline,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiError, type AgentProfile, type Fact, type FactVersion, type StateEntry } from '../api';
import { groupBy, lifetimeLeft, when } from '../format';
import { useRpc } from '../session';
import { PageNav, QueryState } from './common';

/** Facts per page of the agent's facts (facts/list answers a page and the total). */
const FACTS_PAGE = 50;

/** Fact cards drawn in the page's first frame; the rest of the page of facts follows in the background. */
const FACTS_FIRST_DRAWN = 8;

/** One agent's memory: profile, [STATE:] values, and its facts by category (sticky ones starred). */
export function AgentPage() {
  const agent = useParams().agent ?? '';
  const call = useRpc();
  const [showClosed, setShowClosed] = useState(false);
  const [page, setPage] = useState(1);
  const profile = useQuery({
    queryKey: ['agent', agent],
    queryFn: () =>
      call<AgentProfile>('agents/get', { agent }).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
  });
  const state = useQuery({
    queryKey: ['state', agent],
    queryFn: () => call<{ entries: StateEntry[] }>('state/list', { agent }),
  });
  const facts = useQuery({
    queryKey: ['facts', agent, showClosed, page],
    queryFn: () =>
      call<{ facts: Fact[]; total: string }>('facts/list', {
        agents: [agent],
        includeClosed: showClosed,
        limit: FACTS_PAGE,
        offset: (page - 1) * FACTS_PAGE,
      }),
    placeholderData: keepPreviousData,
  });
  const total = Number(facts.data?.total ?? 0);
  const pages = Math.ceil(total / FACTS_PAGE);

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Agent {agent}</Title>
        <Anchor component={Link} to={`/agents/${encodeURIComponent(agent)}/being`}>
          Being memory
        </Anchor>
      </Group>
      <Card withBorder component="section" aria-labelledby="profile-title">
        <Title order={3} size="h4" id="profile-title">
          Profile
        </Title>
        <QueryState loading={profile.isPending} error={profile.error} what="the profile" />
        {profile.data === null && <Text>No profile stored.</Text>}
        {profile.data && (
          <Stack gap={4} mt="xs">
            <Text>Name: {profile.data.name ?? '—'}</Text>
            <Text>Personality: {profile.data.personality ?? '—'}</Text>
            <Text>Job: {profile.data.job ?? '—'}</Text>
            <Text>Model: {profile.data.model ?? '—'}</Text>
            <Text>Tools: {profile.data.tools.length ? profile.data.tools.join(', ') : '—'}</Text>
          </Stack>
        )}
      </Card>

      <Card withBorder component="section" aria-labelledby="state-title">
        <Title order={3} size="h4" id="state-title">
          State
        </Title>
        <QueryState loading={state.isPending} error={state.error} what="the state" />
        {state.data && state.data.entries.length === 0 && <Text>No [STATE:] values.</Text>}
        {state.data && state.data.entries.length > 0 && (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Key</Table.Th>
                <Table.Th>Value</Table.Th>
                <Table.Th>Stated</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {state.data.entries.map((entry) => (
                <Table.Tr key={entry.key}>
                  <Table.Td>{entry.key}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{entry.value}</Table.Td>
                  <Table.Td>{when(entry.statedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>

      <section aria-labelledby="facts-title">
        <Group justify="space-between">
          <Title order={3} id="facts-title">
            Facts
          </Title>
          <Switch
            label="Show forgotten and superseded facts"
            checked={showClosed}
            onChange={(event) => {
              setShowClosed(event.currentTarget.checked);
              setPage(1);
            }}
          />
        </Group>
        <QueryState loading={facts.isPending} error={facts.error} what="the facts" />
        {facts.data && facts.data.facts.length === 0 && <Text>No facts.</Text>}
        {facts.data && total > 0 && (
          <Text size="sm" mt="xs">
            {total} facts, newest first
            {pages > 1 && ` · showing ${(page - 1) * FACTS_PAGE + 1}–${Math.min(page * FACTS_PAGE, total)}`}
          </Text>
        )}
        {facts.data && <FactsByCategory key={`${showClosed}:${page}`} facts={facts.data.facts} />}
        <PageNav label="Pages of facts" pages={pages} page={page} onChange={setPage} />
      </section>
    </Stack>
  );
}

const byCategory = (fact: Fact) => fact.category;

/**
 * A page of facts grouped by category. The first screenful is drawn at once and the rest in a
 * deferred render, so the page shows its first facts without waiting for all fifty cards.
 */
function FactsByCategory({ facts }: { facts: readonly Fact[] }) {
  const drawn = useDeferredValue(facts, facts.slice(0, FACTS_FIRST_DRAWN));
  const inCategory = new Map(groupBy(facts, byCategory).map(([category, all]) => [category, all.length]));
  return groupBy(drawn, byCategory).map(([category, group]) => (
    <Stack key={category} gap="xs" mt="md" component="section" aria-label={`Category ${category}`}>
      <Title order={4}>
        {category} ({inCategory.get(category)})
      </Title>
      {group.map((fact) => (
        <FactCard key={fact.id} fact={fact} />
      ))}
    </Stack>
  ));
}

/** A fact with what the page can do to it: edit its text, forget it (confirmed), read its history. */
function FactCard({ fact }: { fact: Fact }) {
  const call = useRpc();
  const queries = useQueryClient();
  const [dialog, setDialog] = useState<'forget' | 'edit' | 'history' | null>(null);
  const [reason, setReason] = useState('');
  const [text, setText] = useState(fact.content);
  const closed = Boolean(fact.validTo);
  const refresh = () => queries.invalidateQueries({ queryKey: ['facts'] });
  const forget = useMutation({
    mutationFn: () => call('forget', { factId: fact.id, reason }),
    onSuccess: async () => {
      setDialog(null);
      await refresh();
    },
  });
  const edit = useMutation({
    mutationFn: () =>
      call('facts/update', { factId: fact.id, content: text, reason: 'edited in the dashboard' }),
    onSuccess: async () => {
      setDialog(null);
      await refresh();
    },
  });
  const history = useQuery({
    queryKey: ['fact-history', fact.id],
    queryFn: () => call<{ versions: FactVersion[] }>('facts/get', { factId: fact.id }),
    enabled: dialog === 'history',
  });

  return (
    <Card withBorder component="article" aria-label={`Fact ${fact.id}`} data-fact-id={fact.id}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {fact.lifetime === 'sticky' && (
          <Text span c="yellow.9" fz="lg" role="img" aria-label="Sticky" title="Sticky">
            ★
          </Text>
        )}
        <Text style={{ wordBreak: 'break-word' }}>{fact.content}</Text>
      </Group>
      <Group gap="xs" mt="xs">
        <Badge variant="light" color="blue">
          importance {fact.importance}
        </Badge>
        <Badge variant="light" color="gray">
          {fact.lifetime}
        </Badge>
        <Text size="sm">
          {closed ? `closed ${when(fact.validTo)}` : lifetimeLeft(fact.expiresAt, new Date())}
        </Text>
      </Group>
      <Text size="sm" mt={4}>
        {fact.conversationId ? (
          <>
            Said in{' '}
            <Anchor
              component={Link}
              to={`/conversations/${encodeURIComponent(fact.conversationId)}${
                fact.sourceMessageIds[0] ? `?around=${fact.sourceMessageIds[0]}` : ''
              }`}
            >
              conversation {fact.conversationId}
            </Anchor>
          </>
        ) : (
          `Origin: ${fact.origin}`
        )}
      </Text>
      {closed && (
        <Text size="sm">
          {fact.supersededBy ? `Superseded by fact ${fact.supersededBy}` : 'Forgotten'}
          {fact.forgetReason ? `: ${fact.forgetReason}` : ''}
        </Text>
      )}
      <Group gap="xs" mt="sm">
        <Button size="xs" variant="default" onClick={() => setDialog('history')}>
          History
        </Button>
        {!closed && (
          <>
            <Button size="xs" variant="default" onClick={() => setDialog('edit')}>
              Edit
            </Button>
            <Button size="xs" color="red" variant="outline" onClick={() => setDialog('forget')}>
              Forget
            </Button>
          </>
        )}
      </Group>

      {/* A modal is mounted only while open: a closed Mantine Modal still keeps a portal in the body, three per fact. */}
      {dialog === 'forget' && (
        <Modal opened onClose={() => setDialog(null)} title="Forget this fact?">
          <Stack>
            <Text>“{fact.content}” will no longer be found by search. Its history is kept.</Text>
            <TextInput
              label="Reason (optional)"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            {forget.error && <QueryState loading={false} error={forget.error} what="forget" />}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDialog(null)}>
                Cancel
              </Button>
              <Button color="red" loading={forget.isPending} onClick={() => forget.mutate()}>
                Forget fact
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}

      {dialog === 'edit' && (
        <Modal opened onClose={() => setDialog(null)} title="Edit fact">
          <Stack>
            <Textarea
              label="Fact text"
              autosize
              minRows={3}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
            />
            {edit.error && <QueryState loading={false} error={edit.error} what="save" />}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDialog(null)}>
                Cancel
              </Button>
              <Button loading={edit.isPending} disabled={text.trim() === ''} onClick={() => edit.mutate()}>
                Save
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}

      {dialog === 'history' && (
        <Modal opened onClose={() => setDialog(null)} title="Fact history">
          <QueryState loading={history.isPending} error={history.error} what="the history" />
          {history.data && (
            <Timeline bulletSize={14}>
              {history.data.versions.map((version, i) => (
                <Timeline.Item key={i} title={`${version.event} · ${when(version.at)}`}>
                  <Text size="sm">{version.newContent || version.oldContent}</Text>
                  {version.fact.forgetReason && <Text size="sm">Reason: {version.fact.forgetReason}</Text>}
                </Timeline.Item>
              ))}
            </Timeline>
          )}
        </Modal>
      )}
    </Card>
  );
}
