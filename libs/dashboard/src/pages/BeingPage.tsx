import { useId, useState } from 'react';
import { LineChart } from '@mantine/charts';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiError } from '../api';
import {
  clusterForest,
  importanceCurve,
  statusCounts,
  type Being,
  type BeingNote,
  type ClusterBranch,
  type Journal,
  type NodeHistoryPoint,
  type PatrolReport,
  type SceneNode,
} from '../being';
import { when } from '../format';
import { useRpc } from '../session';
import { QueryState } from './common';

const STATUSES = ['active', 'dying', 'dead'] as const;
// Filled in dark shades: white text on them keeps WCAG AA contrast.
const STATUS_COLORS: Readonly<Record<string, string>> = { active: 'teal.9', dying: 'red.9', dead: 'gray.8' };

const NESTED_LIST = {
  listStyle: 'none',
  margin: 0,
  paddingLeft: 'var(--mantine-spacing-sm)',
  borderLeft: '2px solid var(--mantine-color-gray-4)',
} as const;

/**
 * A being's scene memory (mem.rpc.being.*): its clusters as a tree with node counts by status,
 * a cluster's nodes, a node's scene and importance curve with pin/unpin, the diary and think
 * notes, its notes, and a patrol run on demand with what each step changed. Looking changes
 * nothing: nodes are read with nodes.list, which (unlike recall_memory) revives none.
 */
export function BeingPage() {
  const agent = useParams().agent ?? '';
  const call = useRpc();
  const [clusterId, setClusterId] = useState<string | null>(null);
  const [nodeId, setNodeId] = useState<string | null>(null);
  const being = useQuery({
    queryKey: ['being', agent, 'get'],
    queryFn: () =>
      call<Being>('being/get', { agent }).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
  });
  const forest = clusterForest(being.data?.clusters ?? []);
  const chosen = being.data?.clusters.find((c) => c.id === clusterId) ?? null;

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Being memory of {agent}</Title>
        <Anchor component={Link} to={`/agents/${encodeURIComponent(agent)}`}>
          Back to agent {agent}
        </Anchor>
      </Group>
      <QueryState loading={being.isPending} error={being.error} what="the being" />
      {being.data === null && (
        <Text>Agent {agent} is not a being yet: it has written no scene, note or soul.</Text>
      )}
      {being.data && (
        <Text size="sm">
          {being.data.pendingScenes} scene notes wait for the next patrol · {being.data.unreadNotes} unread
          notes
        </Text>
      )}
      <PatrolPanel agent={agent} />
      {being.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <ClusterTree
            forest={forest}
            chosen={clusterId}
            onChoose={(id) => (setClusterId(id), setNodeId(null))}
          />
          <Stack>
            {chosen ? (
              <NodeList
                agent={agent}
                clusterId={chosen.id}
                clusterName={chosen.name}
                chosen={nodeId}
                onChoose={setNodeId}
              />
            ) : (
              <Text>Choose a cluster to see its scenes.</Text>
            )}
            {nodeId && <NodeDetail agent={agent} nodeId={nodeId} />}
          </Stack>
        </SimpleGrid>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <JournalPanel agent={agent} />
        <NotesPanel agent={agent} />
      </SimpleGrid>
    </Stack>
  );
}

/** The clusters as a disclosure tree: Business and Private, their sub-clusters below them. */
function ClusterTree({
  forest,
  chosen,
  onChoose,
}: {
  forest: ClusterBranch[];
  chosen: string | null;
  onChoose: (id: string) => void;
}) {
  const headingId = useId();
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId} mb="xs">
        Clusters
      </Title>
      <Stack
        component="ul"
        gap="xs"
        aria-labelledby={headingId}
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {forest.map((branch) => (
          <ClusterItem key={branch.cluster.id} branch={branch} chosen={chosen} onChoose={onChoose} />
        ))}
      </Stack>
    </Card>
  );
}

function ClusterItem({
  branch,
  chosen,
  onChoose,
}: {
  branch: ClusterBranch;
  chosen: string | null;
  onChoose: (id: string) => void;
}) {
  const { cluster, children, total } = branch;
  const [open, setOpen] = useState(true);
  const childrenId = useId();
  const isRoot = cluster.parentId === cluster.id;
  return (
    <li data-cluster-id={cluster.id}>
      <Group gap="xs" wrap="wrap">
        {children.length > 0 && (
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={open}
            aria-controls={childrenId}
            aria-label={`${open ? 'Hide' : 'Show'} the sub-clusters of ${cluster.name}`}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? '▾' : '▸'}
          </Button>
        )}
        <Button
          variant={chosen === cluster.id ? 'filled' : 'light'}
          size="compact-sm"
          aria-pressed={chosen === cluster.id}
          onClick={() => onChoose(cluster.id)}
        >
          {cluster.name}
        </Button>
        <Text size="sm" data-counts>
          {statusCounts(cluster)}
          {children.length > 0 && ` · with sub-clusters ${statusCounts(total)}`}
        </Text>
        {isRoot && (
          <Badge variant="light" color="gray">
            root
          </Badge>
        )}
      </Group>
      {open && children.length > 0 && (
        <Stack id={childrenId} component="ul" gap="xs" mt="xs" style={NESTED_LIST}>
          {children.map((child) => (
            <ClusterItem key={child.cluster.id} branch={child} chosen={chosen} onChoose={onChoose} />
          ))}
        </Stack>
      )}
    </li>
  );
}

/** The cluster's own scenes, most important first, filtered by status. */
function NodeList({
  agent,
  clusterId,
  clusterName,
  chosen,
  onChoose,
}: {
  agent: string;
  clusterId: string;
  clusterName: string;
  chosen: string | null;
  onChoose: (id: string) => void;
}) {
  const call = useRpc();
  const headingId = useId();
  const [statuses, setStatuses] = useState<string[]>([...STATUSES]);
  const nodes = useQuery({
    queryKey: ['being', agent, 'nodes', clusterId, statuses],
    queryFn: () =>
      call<{ nodes: SceneNode[] }>('being/nodes/list', { agent, clusterId, statuses, limit: 500 }),
    enabled: statuses.length > 0,
  });
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>
        Scenes in {clusterName}
      </Title>
      <Checkbox.Group label="Show scenes that are" value={statuses} onChange={setStatuses} my="xs">
        <Group gap="md">
          {STATUSES.map((s) => (
            <Checkbox key={s} value={s} label={s} />
          ))}
        </Group>
      </Checkbox.Group>
      {statuses.length > 0 && <QueryState loading={nodes.isPending} error={nodes.error} what="the scenes" />}
      {nodes.data && nodes.data.nodes.length === 0 && <Text>No scenes here.</Text>}
      <Stack component="ul" gap="xs" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {statuses.length > 0 &&
          nodes.data?.nodes.map((node) => (
            <Card component="li" key={node.id} withBorder padding="xs" data-node-id={node.id}>
              <Text style={{ wordBreak: 'break-word' }}>{node.action}</Text>
              <Group gap="xs" mt={4}>
                <StatusBadge status={node.status} />
                <Text size="sm">importance {node.importance.toFixed(2)}</Text>
                {node.pinned && (
                  <Badge variant="light" color="blue">
                    pinned
                  </Badge>
                )}
                <Button
                  size="compact-xs"
                  variant={chosen === node.id ? 'filled' : 'default'}
                  aria-pressed={chosen === node.id}
                  onClick={() => onChoose(node.id)}
                >
                  Open scene {node.id}
                </Button>
              </Group>
            </Card>
          ))}
      </Stack>
    </Card>
  );
}

function StatusBadge({ status }: { status: SceneNode['status'] }) {
  return (
    <Badge variant="filled" color={STATUS_COLORS[status] ?? 'gray.8'}>
      {status}
    </Badge>
  );
}

/** One scene whole: the scene's parts, its feeling and state, its importance curve, pin/unpin. */
function NodeDetail({ agent, nodeId }: { agent: string; nodeId: string }) {
  const call = useRpc();
  const client = useQueryClient();
  const headingId = useId();
  // By id, wherever it is now: a patrol may have moved it to another cluster.
  const nodes = useQuery({
    queryKey: ['being', agent, 'node', nodeId],
    queryFn: () => call<{ nodes: SceneNode[] }>('being/nodes/list', { agent, nodeIds: [nodeId] }),
  });
  const node = nodes.data?.nodes.find((n) => n.id === nodeId);
  const history = useQuery({
    queryKey: ['being', agent, 'history', nodeId],
    queryFn: () => call<{ points: NodeHistoryPoint[] }>('being/nodes/history/get', { agent, nodeId }),
  });
  const pin = useMutation({
    mutationFn: (pinned: boolean) => call<SceneNode>('being/nodes/pin', { agent, nodeId, pinned }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['being', agent] }),
  });
  const curve = importanceCurve(history.data?.points ?? []);
  return (
    <Card withBorder component="section" aria-labelledby={headingId} data-scene-detail={nodeId}>
      <Title order={3} size="h4" id={headingId}>
        Scene {nodeId}
      </Title>
      <QueryState loading={nodes.isPending} error={nodes.error} what="the scene" />
      {nodes.data && !node && (
        <Text>This scene is no longer one of its own: a patrol merged it into another.</Text>
      )}
      {node && (
        <Stack gap={4} mt="xs">
          <Text fw={600} style={{ wordBreak: 'break-word' }}>
            {node.action}
          </Text>
          <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '2px 12px' }}>
            <Field name="Actors" value={node.actors.join(', ')} />
            <Field
              name="When"
              value={node.when.map((w) => (w.action ? `${w.date} (${w.action})` : w.date)).join('; ')}
            />
            <Field name="Setting" value={node.setting} />
            <Field name="Dialogue" value={node.dialogue.map((d) => `“${d}”`).join(' ')} />
            <Field name="Sensory" value={node.sensory.join(', ')} />
            <Field name="Feeling" value={node.feeling} />
            <Field name="Importance" value={node.importance.toFixed(2)} />
            <Field name="Status" value={node.status} />
            <Field name="Pinned" value={node.pinned ? 'yes' : 'no'} />
            <Field name="Patrols lived" value={String(node.sessionCount)} />
            <Field name="Recalled" value={`${node.reactivationCount} times`} />
            <Field name="Themes" value={node.themes.join(', ')} />
          </dl>
          <Group mt="xs">
            <Button
              size="xs"
              variant={node.pinned ? 'default' : 'filled'}
              loading={pin.isPending}
              onClick={() => pin.mutate(!node.pinned)}
            >
              {node.pinned ? 'Unpin' : 'Pin'} scene
            </Button>
            {pin.error && <QueryState loading={false} error={pin.error} what="pin" />}
          </Group>
        </Stack>
      )}
      <figure style={{ margin: 0, marginTop: 'var(--mantine-spacing-sm)' }}>
        <figcaption>
          <Text size="sm" fw={600}>
            Importance over patrol runs (effective: as decay judges it; at or below 0.05 a scene is dying)
          </Text>
        </figcaption>
        <QueryState loading={history.isPending} error={history.error} what="the importance curve" />
        {history.data && curve.length === 0 && <Text size="sm">No patrol has recorded this scene yet.</Text>}
        {curve.length > 0 && (
          <>
            <LineChart
              h={180}
              data={curve}
              dataKey="run"
              series={[
                { name: 'effective', label: 'effective importance', color: 'blue.7' },
                { name: 'importance', label: 'stored importance', color: 'gray.6' },
              ]}
              yAxisProps={{ domain: [0, 1] }}
              curveType="linear"
              withLegend
            />
            <Table.ScrollContainer minWidth={280}>
              <Table aria-label={`Importance of scene ${nodeId} by patrol run`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Run</Table.Th>
                    <Table.Th>Effective</Table.Th>
                    <Table.Th>Stored</Table.Th>
                    <Table.Th>Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {curve.map((p) => (
                    <Table.Tr key={p.run}>
                      <Table.Td>{p.run}</Table.Td>
                      <Table.Td>{p.effective}</Table.Td>
                      <Table.Td>{p.importance}</Table.Td>
                      <Table.Td>{p.status}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </figure>
    </Card>
  );
}

function Field({ name, value }: { name: string; value: string }) {
  return (
    <>
      <Text component="dt" size="sm" fw={600}>
        {name}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ wordBreak: 'break-word' }}>
        {value || '—'}
      </Text>
    </>
  );
}

/** Runs the patrol now and shows its report step by step; the page's data is read again after. */
function PatrolPanel({ agent }: { agent: string }) {
  const call = useRpc();
  const client = useQueryClient();
  const headingId = useId();
  const patrol = useMutation({
    mutationFn: () => call<PatrolReport>('patrol/run', { agent }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['being', agent] }),
  });
  const report = patrol.data;
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Group justify="space-between" wrap="wrap">
        <Title order={3} size="h4" id={headingId}>
          Patrol
        </Title>
        <Button size="xs" loading={patrol.isPending} onClick={() => patrol.mutate()}>
          Run patrol
        </Button>
      </Group>
      {patrol.error && <QueryState loading={false} error={patrol.error} what="the patrol" />}
      {!report && !patrol.error && (
        <Text size="sm">
          The patrol turns scene notes into scenes, lets them fade, and (with a language model) consolidates
          them and writes the diary.
        </Text>
      )}
      {report && (
        <Stack gap={4} mt="xs" aria-live="polite">
          <Text size="sm">
            Run {report.runId}
            {report.resumed ? ' (finished a run cut short before)' : ''} · finished {when(report.finishedAt)}
          </Text>
          <Table.ScrollContainer minWidth={280}>
            <Table aria-label={`What patrol run ${report.runId} changed`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Step</Table.Th>
                  <Table.Th>What changed</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.steps.map((s) => (
                  <Table.Tr key={s.step} data-step={s.step}>
                    <Table.Td>{s.step}</Table.Td>
                    <Table.Td>
                      {s.skipped
                        ? `skipped: ${s.reason}`
                        : Object.entries(s.counts)
                            .map(([name, n]) => `${name} ${n}`)
                            .join(', ') || 'nothing'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      )}
    </Card>
  );
}

/** The diary, newest day first, and the think notes in force (mem.rpc.being.journal.get). */
function JournalPanel({ agent }: { agent: string }) {
  const call = useRpc();
  const headingId = useId();
  const journal = useQuery({
    queryKey: ['being', agent, 'journal'],
    queryFn: () => call<Journal>('being/journal/get', { agent, limit: 30 }),
  });
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>
        Diary and think notes
      </Title>
      <QueryState loading={journal.isPending} error={journal.error} what="the diary" />
      {journal.data && (
        <Stack gap="xs" mt="xs">
          <Title order={4} size="h5">
            Think notes in force
          </Title>
          {journal.data.thinkNotes.length === 0 && <Text size="sm">None yet.</Text>}
          <Stack component="ul" gap={4} m={0} pl="md">
            {journal.data.thinkNotes.map((t) => (
              <Text component="li" size="sm" key={t.id} style={{ wordBreak: 'break-word' }}>
                {t.content}
              </Text>
            ))}
          </Stack>
          <Title order={4} size="h5">
            Diary
          </Title>
          {journal.data.diary.length === 0 && <Text size="sm">No diary entries yet.</Text>}
          {journal.data.diary.map((d) => (
            <article key={d.day} aria-label={`Diary ${d.day}`}>
              <Text size="sm" fw={600}>
                {d.day}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {d.content}
              </Text>
            </article>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** The being's notes, newest first (mem.rpc.being.notes.list; listing marks nothing read). */
function NotesPanel({ agent }: { agent: string }) {
  const call = useRpc();
  const headingId = useId();
  const notes = useQuery({
    queryKey: ['being', agent, 'notes'],
    queryFn: () => call<{ notes: BeingNote[] }>('being/notes/list', { agent, limit: 50 }),
  });
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>
        Notes
      </Title>
      <QueryState loading={notes.isPending} error={notes.error} what="the notes" />
      {notes.data && notes.data.notes.length === 0 && <Text size="sm">No notes.</Text>}
      <Stack component="ul" gap="xs" mt="xs" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {notes.data?.notes.map((n) => (
          <Card component="li" key={n.id} withBorder padding="xs" data-note-id={n.id}>
            <Group gap="xs">
              <Badge variant="light" color="gray">
                {n.kind}
              </Badge>
              {n.kind !== 'scene' && !n.readAt && (
                <Badge variant="light" color="blue">
                  unread
                </Badge>
              )}
              {n.parseFailed && (
                <Badge variant="filled" color="red.9">
                  did not parse
                </Badge>
              )}
              <Text size="sm">{when(n.createdAt)}</Text>
            </Group>
            <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {n.content}
            </Text>
          </Card>
        ))}
      </Stack>
    </Card>
  );
}
