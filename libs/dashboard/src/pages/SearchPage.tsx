import { useId, useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { SearchHit, SearchResponse } from '../api';
import { when, whyItScored } from '../format';
import { useRpc } from '../session';
import { QueryState } from './common';

const KINDS = ['message', 'summary', 'fact'];

/** memory_search as a form: query, mode, fusion and filters; each hit with its kind, score and why. */
export function SearchPage() {
  const call = useRpc();
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState('fulltext');
  const [fusion, setFusion] = useState('weighted');
  const [agent, setAgent] = useState('');
  const [conversationId, setConversationId] = useState('');
  const [kinds, setKinds] = useState<string[]>([]);
  const [expand, setExpand] = useState(true);
  const [synthesize, setSynthesize] = useState(false);
  const search = useMutation({
    mutationFn: () =>
      call<SearchResponse>('search', {
        query,
        mode,
        fusion,
        expand,
        synthesize,
        // A look from the dashboard is not a use of memory: it keeps no access statistics.
        recordAccess: false,
        filters: { agent, conversationId, kinds },
      }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    search.mutate();
  }

  return (
    <Stack>
      <Title order={2}>Search</Title>
      <form onSubmit={submit} aria-label="Search memory">
        <Stack>
          <TextInput label="Query" required value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            <NativeSelect
              label="Mode"
              data={['fulltext', 'trigram', 'regex']}
              value={mode}
              onChange={(e) => setMode(e.currentTarget.value)}
            />
            <NativeSelect
              label="Fusion"
              data={['weighted', 'rrf']}
              value={fusion}
              onChange={(e) => setFusion(e.currentTarget.value)}
            />
            <TextInput label="Agent" value={agent} onChange={(e) => setAgent(e.currentTarget.value)} />
            <TextInput
              label="Conversation"
              value={conversationId}
              onChange={(e) => setConversationId(e.currentTarget.value)}
            />
          </SimpleGrid>
          <Checkbox.Group label="Kinds (none: all)" value={kinds} onChange={setKinds}>
            <Group mt={4}>
              {KINDS.map((kind) => (
                <Checkbox key={kind} value={kind} label={kind} />
              ))}
            </Group>
          </Checkbox.Group>
          <Switch
            label="Expand summaries and facts to their sources"
            checked={expand}
            onChange={(e) => setExpand(e.currentTarget.checked)}
          />
          <Switch
            label="Synthesize an answer from the hits"
            checked={synthesize}
            onChange={(e) => setSynthesize(e.currentTarget.checked)}
          />
          <Group>
            <Button type="submit" loading={search.isPending}>
              Search
            </Button>
          </Group>
        </Stack>
      </form>
      <QueryState loading={false} error={search.error} what="the search" />
      {search.data && (
        <section aria-label="Results">
          <Text size="sm" mb="xs">
            {search.data.hits.length} hits in {Math.round(search.data.tookMs)} ms (answered by{' '}
            {search.data.answeredBy})
          </Text>
          {search.data.degraded && (
            <Alert variant="outline" color="gray.8" mb="xs" title="Degraded">
              {search.data.degradedReason}
            </Alert>
          )}
          {search.data.synthesis?.answer && <Synthesis synthesis={search.data.synthesis} />}
          <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {search.data.hits.map((hit) => (
              <Hit
                key={`${hit.kind}:${hit.id}:${hit.expandedFrom}`}
                hit={hit}
                expanded={search.data.hits.some((h) => h.expandedFrom === `${hit.kind}:${hit.id}`)}
              />
            ))}
          </Stack>
        </section>
      )}
    </Stack>
  );
}

/** The answer written over the hits, with the refs it cites (each a hit below) and its model. */
function Synthesis({ synthesis }: { synthesis: NonNullable<SearchResponse['synthesis']> }) {
  return (
    <Card component="section" aria-label="Synthesis" withBorder mb="xs">
      <Title order={3} size="h4">
        Synthesis
      </Title>
      <Text mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {synthesis.answer}
      </Text>
      <Text size="sm" mt={4} style={{ wordBreak: 'break-word' }}>
        Cites {synthesis.citedIds.length > 0 ? synthesis.citedIds.join(', ') : 'no hits'} · written by{' '}
        {synthesis.model}
      </Text>
    </Card>
  );
}

/**
 * One hit: kind, score and its signals; an expansion is indented under the hit it came from. A
 * summary or fact hit whose sources the search did not expand opens them on demand.
 */
function Hit({ hit, expanded }: { hit: SearchHit; expanded: boolean }) {
  const expansion = hit.expandedFrom !== '';
  const conversation = hit.provenance?.conversationId;
  const ref = `${hit.kind}:${hit.id}`;
  const [open, setOpen] = useState(false);
  const sourcesId = useId();
  const canOpen = !expansion && !expanded && (hit.kind === 'summary' || hit.kind === 'fact');
  return (
    <Card component="li" withBorder ml={expansion ? 'lg' : 0} data-ref={`${hit.kind}:${hit.id}`}>
      <Group gap="xs">
        <Badge variant="light">{hit.kind}</Badge>
        <Text size="sm" fw={600}>
          {expansion ? `source of ${hit.expandedFrom}` : `score ${hit.score.toFixed(3)}`}
        </Text>
        {!expansion && <Text size="sm">{whyItScored(hit.signals as unknown as Record<string, number>)}</Text>}
      </Group>
      <Text mt={4} style={{ wordBreak: 'break-word' }}>
        {hit.content}
      </Text>
      <Text size="sm" mt={4}>
        {hit.kind}:{hit.id} · {hit.provenance?.agent}
        {hit.provenance?.role ? ` · ${hit.provenance.role}` : ''} · {when(hit.createdAt)}
        {conversation && (
          <>
            {' · '}
            <Anchor component={Link} to={`/conversations/${encodeURIComponent(conversation)}`}>
              conversation {conversation}
            </Anchor>
          </>
        )}
      </Text>
      {canOpen && (
        <Group mt={4}>
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={open}
            aria-controls={sourcesId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Hide sources' : 'Show sources'}
          </Button>
        </Group>
      )}
      {canOpen && open && <Sources id={sourcesId} itemRef={ref} />}
    </Card>
  );
}

/** What a summary or fact stands for, one level down (mem.rpc.expand): its children or source messages. */
function Sources({ id, itemRef }: { id: string; itemRef: string }) {
  const call = useRpc();
  const recall = useQuery({
    queryKey: ['expand', itemRef, 1],
    queryFn: () => call<{ items: SearchHit[] }>('expand', { refs: [itemRef], depth: 1 }),
  });
  const sources = (recall.data?.items ?? []).filter((item) => item.expandedFrom !== '');
  return (
    <div id={id}>
      <QueryState loading={recall.isPending} error={recall.error} what="the sources" />
      {recall.isSuccess && sources.length === 0 && <Text size="sm">No sources.</Text>}
      {sources.length > 0 && (
        <Stack
          component="ol"
          gap="xs"
          mt="xs"
          aria-label={`Sources of ${itemRef}`}
          style={{ listStyle: 'none', margin: 0, paddingLeft: 'var(--mantine-spacing-sm)' }}
        >
          {sources.map((item) => (
            <Card component="li" withBorder padding="xs" key={`${item.kind}:${item.id}`}>
              <Group gap="xs">
                <Badge variant="light">{item.kind}</Badge>
                {item.provenance?.role && <Text size="sm">{item.provenance.role}</Text>}
                <Text size="sm">{when(item.createdAt)}</Text>
              </Group>
              <Text mt={4} style={{ wordBreak: 'break-word' }}>
                {item.content}
              </Text>
              <Text size="sm">
                {item.kind}:{item.id}
              </Text>
            </Card>
          ))}
        </Stack>
      )}
    </div>
  );
}
