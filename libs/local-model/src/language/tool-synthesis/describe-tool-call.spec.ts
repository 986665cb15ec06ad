import { describeToolCall, identifierWords } from './describe-tool-call';

describe('describeToolCall', () => {
  it.each([
    ['weather', { city: 'Lisbon' }, 'Looked up the weather for Lisbon.'],
    ['get_weather', { city: 'Lisbon', units: 'metric' }, 'Looked up the weather for Lisbon (units metric).'],
    ['getCurrentWeather', { location: 'Paris, France' }, 'Looked up the current weather for Paris, France.'],
    ['search_web', { query: 'pgvector hnsw', limit: 5 }, 'Searched the web for "pgvector hnsw" (limit 5).'],
    ['searchWeb', { query: 'pgvector hnsw' }, 'Searched the web for "pgvector hnsw".'],
    ['web_search', { q: 'nestjs jetstream' }, 'Searched the web for "nestjs jetstream".'],
    ['read_file', { path: 'src/index.ts' }, 'Read the file src/index.ts.'],
    ['write_file', { path: 'README.md', content: 'hello world' }, 'Wrote the file README.md "hello world".'],
    ['list_files', { directory: '/tmp' }, 'Listed files in /tmp.'],
    ['delete_file', { path: '/tmp/x.log' }, 'Deleted the file /tmp/x.log.'],
    ['update_issue', { issue_number: 12, state: 'closed' }, 'Updated the issue #12 (state closed).'],
    ['run_command', { cmd: 'npm test' }, 'Ran the command `npm test`.'],
    ['bash', { command: 'ls -la' }, 'Ran a shell command `ls -la`.'],
    ['calculator', { expression: '2+2*3' }, 'Calculated `2+2*3`.'],
    [
      'send_email',
      { to: 'bob@example.com', subject: 'Invoice' },
      'Sent an email "Invoice" to bob@example.com.',
    ],
    ['Grep', { pattern: 'TODO', path: 'src' }, 'Searched for "TODO" in src.'],
    ['browser.navigate', { url: 'https://news.ycombinator.com' }, 'Visited https://news.ycombinator.com.'],
  ])('%s(%j) → %j', (name, args, expected) => {
    expect(describeToolCall(name, args)).toBe(expected);
  });

  it('humanises namespaced names and puts the namespace last', () => {
    expect(
      describeToolCall('github.create_issue', { repo: 'engram/engram', title: 'Fix login redirect' }),
    ).toBe('Created an issue "Fix login redirect" in engram/engram on GitHub.');
    expect(describeToolCall('mcp__slack__send_message', { channel: '#general', text: 'Deploy done' })).toBe(
      'Sent a message "Deploy done" to #general on Slack.',
    );
  });

  it('describes a call without arguments', () => {
    expect(describeToolCall('get_time')).toBe('Looked up the time.');
    expect(describeToolCall('list_repos', null)).toBe('Listed repositories.');
    expect(describeToolCall('ping', {})).toBe('Used the tool ping.');
    expect(describeToolCall('', undefined)).toBe('Used the tool unknown.');
  });

  it('enters nested arguments one level and never dumps deeper objects', () => {
    const sentence = describeToolCall('search_web', {
      query: 'x',
      filters: { site: 'github.com', lang: 'en', deep: { secret: 'no', more: { x: 1 } } },
    });
    expect(sentence).toBe('Searched the web for "x" (site github.com, lang en).');
    expect(sentence).not.toContain('{');
    expect(describeToolCall('frobnicate', { a: { b: { c: { d: 1 } } } })).toBe('Used the tool frobnicate.');
  });

  it('summarises long strings and arrays instead of dumping them', () => {
    const sentence = describeToolCall('github.create_issue', {
      title: 'Fix it',
      body: 'x'.repeat(5000),
      labels: ['bug', 'ui', 'p1', 'backend', 'infra'],
    });
    expect(sentence).toBe(
      'Created an issue "Fix it" on GitHub (5000 characters of body, labels bug, ui, p1 and 2 more).',
    );
  });

  it('cuts long values and stays within 200 characters', () => {
    const long = describeToolCall('search', { query: 'lorem ipsum '.repeat(100) });
    expect(long.startsWith('Searched for "lorem ipsum')).toBe(true);
    expect(long).toContain('…');
    expect(long.length).toBeLessThanOrEqual(200);
    const many = describeToolCall(
      'create_event',
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`field_${i}`, 'value '.repeat(20)])),
    );
    expect(many.length).toBeLessThanOrEqual(200);
    expect(describeToolCall('x', { query: 'y'.repeat(1000) }, { maxChars: 60 }).length).toBeLessThanOrEqual(
      60,
    );
  });

  it('accepts JSON-string arguments and raw strings', () => {
    expect(describeToolCall('create_issue', '{"title": "JSON string args", "repo": "a/b"}')).toBe(
      'Created an issue "JSON string args" in a/b.',
    );
    expect(describeToolCall('exec', 'rm -rf node_modules')).toBe('Ran `rm -rf node_modules`.');
    expect(describeToolCall('search', 'not json {')).toBe('Searched for "not json {".');
  });

  it('shows true flags by name and leaves false ones out', () => {
    expect(describeToolCall('list_files', { path: 'src', recursive: true, hidden: false })).toBe(
      'Listed files in src (recursive).',
    );
  });

  it('is deterministic and always one sentence ending in a full stop or ellipsis', () => {
    const args = { b: 2, a: 1, query: 'q' };
    expect(describeToolCall('search_docs', args)).toBe(describeToolCall('search_docs', args));
    expect(describeToolCall('search_docs', args)).toMatch(/^[A-Z].*[.…]$/);
  });
});

describe('identifierWords', () => {
  it('splits camelCase, PascalCase, snake_case and kebab-case', () => {
    expect(identifierWords('getCurrentWeather')).toEqual(['get', 'current', 'weather']);
    expect(identifierWords('HTTPRequest_send-now')).toEqual(['http', 'request', 'send', 'now']);
  });
});
