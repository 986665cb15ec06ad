import { useState } from 'react';
import { LineChart } from '@mantine/charts';
import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  Modal,
  SimpleGrid,
  Spoiler,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, type DeadLetter, type SystemHealth } from '../api';
import { when } from '../format';
import { useRpc, useSession } from '../session';
import { QueryState } from './common';

/** How often the page asks again while it is open. */
const REFRESH_MS = 10_000;

/** Dark enough for white text at WCAG AA (Mantine's green.9 and orange.9 are not). */
const STATUS_COLOR: Readonly<Record<string, string>> = {
  up: '#1b5e20',
  degraded: '#8a4b00',
  down: '#b71c1c',
};

/** A minute as the charts' axis shows it (hours:minutes, the reader's time zone). */
const minuteLabel = (at: string) => when(at).slice(11, 16);

/**
 * The system as it runs (GET /v1/health, over all tenants): each service up, degraded or down
 * with its replicas and their dependencies, the workers' queues, the last hour's ingest rate and
 * stored → vector delay; then the tenant's own dead letters, each with its reason and a re-drive.
 */
export function HealthPage() {
  const { key } = useSession();
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => getJson<SystemHealth>(key!, '/v1/health'),
    refetchInterval: REFRESH_MS,
  });
  const activity = (health.data?.activity ?? []).map((m) => ({
    minute: minuteLabel(m.minute),
    messages: m.messagesStored,
    lag: Math.round(m.meanVectorLagMs),
  }));
  return (
    <Stack>
      <Title order={2}>Health</Title>
      <QueryState loading={health.isPending} error={health.error} what="health" />
      {health.data && (
        <>
          <section aria-labelledby="services-heading">
            <Title order={3} id="services-heading" mb="xs">
              Services
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
              {health.data.services.map((s) => (
                <Card key={s.service} withBorder component="article" aria-label={`${s.service}: ${s.status}`}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600}>{s.service}</Text>
                    <Badge color={STATUS_COLOR[s.status]}>{s.status}</Badge>
                  </Group>
                  <Text size="sm">
                    {s.instances.length} {s.instances.length === 1 ? 'replica' : 'replicas'}
                  </Text>
                  {s.instances.flatMap((i) =>
                    i.dependencies
                      .filter((d) => !d.up)
                      .map((d) => (
                        <Text key={`${i.instance}/${d.name}`} size="sm" c="red.9">
                          {i.instance}: {d.name} down ({d.reason})
                        </Text>
                      )),
                  )}
                </Card>
              ))}
            </SimpleGrid>
          </section>
          <section aria-labelledby="activity-heading">
            <Title order={3} id="activity-heading" mb="xs">
              The last hour
            </Title>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <ActivityChart
                caption={`Messages stored per minute (${activity.reduce((n, m) => n + m.messages, 0)} in the hour)`}
                data={activity}
                series={{ name: 'messages', color: 'blue.9' }}
              />
              <ActivityChart
                caption="Stored → vector, mean ms per minute"
                data={activity}
                series={{ name: 'lag', label: 'ms', color: 'teal.9' }}
              />
            </SimpleGrid>
          </section>
          <section aria-labelledby="queues-heading">
            <Title order={3} id="queues-heading" mb="xs">
              Queues ({health.data.deadLetters} dead letters over all tenants)
            </Title>
            <Table.ScrollContainer minWidth={320}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Queue</Table.Th>
                    <Table.Th>Pending</Table.Th>
                    <Table.Th>In flight</Table.Th>
                    <Table.Th>Failed</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {health.data.queues.map((q) => (
                    <Table.Tr key={q.name}>
                      <Table.Td>{q.name}</Table.Td>
                      <Table.Td>{q.pending}</Table.Td>
                      <Table.Td>{q.inFlight}</Table.Td>
                      <Table.Td>{q.failed}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </section>
        </>
      )}
      <DeadLetters />
    </Stack>
  );
}

/** One series of the last hour as a line chart with its caption. */
function ActivityChart({
  caption,
  data,
  series,
}: {
  caption: string;
  data: Array<Record<string, string | number>>;
  series: { name: string; label?: string; color: string };
}) {
  return (
    <figure style={{ margin: 0 }}>
      <figcaption>
        <Text size="sm" fw={600}>
          {caption}
        </Text>
      </figcaption>
      <LineChart h={180} data={data} dataKey="minute" series={[series]} curveType="linear" withDots={false} />
    </figure>
  );
}

/** The tenant's dead letters, newest first, each with its reason, its original and a re-drive. */
function DeadLetters() {
  const call = useRpc();
  const client = useQueryClient();
  const [chosen, setChosen] = useState<DeadLetter | null>(null);
  const letters = useQuery({
    queryKey: ['deadletters'],
    queryFn: () => call<{ letters: DeadLetter[] }>('deadletters/list', { limit: 100 }),
    refetchInterval: REFRESH_MS,
  });
  const redrive = useMutation({
    mutationFn: (letter: DeadLetter) =>
      call<{ subject: string; sequence: string }>('deadletters/redrive', { sequence: letter.sequence }),
    onSuccess: async () => {
      setChosen(null);
      await client.invalidateQueries({ queryKey: ['deadletters'] });
      await client.invalidateQueries({ queryKey: ['health'] });
    },
  });
  return (
    <section aria-labelledby="deadletters-heading">
      <Title order={3} id="deadletters-heading" mb="xs">
        Dead letters of this tenant
      </Title>
      <QueryState loading={letters.isPending} error={letters.error} what="dead letters" />
      {letters.data && letters.data.letters.length === 0 && <Text>No dead letters.</Text>}
      <Stack>
        {letters.data?.letters.map((l) => (
          <Card key={l.sequence} withBorder component="article" aria-label={`Dead letter ${l.sequence}`}>
            <Group justify="space-between" wrap="wrap">
              <Text fw={600}>
                {l.consumer} gave up ({l.cause}, {l.deliveries} deliveries)
              </Text>
              <Button size="xs" variant="light" onClick={() => setChosen(l)}>
                Re-drive letter {l.sequence}
              </Button>
            </Group>
            <Text size="sm">
              {when(l.deadAt)} · {l.originalSubject}
            </Text>
            <Text size="sm">Reason: {l.reason}</Text>
            <Spoiler maxHeight={48} showLabel="Show the whole message" hideLabel="Show less">
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {l.payload}
              </Code>
            </Spoiler>
          </Card>
        ))}
      </Stack>
      <Modal opened={chosen !== null} onClose={() => setChosen(null)} title="Re-drive this dead letter?">
        <Text size="sm" mb="md">
          Its original message is published again on {chosen?.originalSubject}; every worker of that subject
          handles it once more, and the letter is removed.
        </Text>
        {redrive.error && (
          <Text c="red.9" role="alert" size="sm" mb="sm">
            {String(redrive.error)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setChosen(null)}>
            Cancel
          </Button>
          <Button loading={redrive.isPending} onClick={() => chosen && redrive.mutate(chosen)}>
            Re-drive
          </Button>
        </Group>
      </Modal>
    </section>
  );
}
