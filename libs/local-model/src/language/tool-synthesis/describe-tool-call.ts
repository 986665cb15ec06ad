/**
 * Tool synthesis, built in: one past-tense sentence for a tool call, from its name and arguments alone:
 * `search_web({query: "pgvector hnsw", limit: 5})` → `Searched the web for "pgvector hnsw" (limit 5).`
 * Deterministic, never longer than `maxChars` (default 200), never dumps JSON.
 */

export interface DescribeToolCallOptions {
  /** Longest sentence returned. Default 200. */
  maxChars?: number;
  /** Longest quoted argument value before it is cut with "…". Default 60. */
  maxValueChars?: number;
}

/** How each verb reads in the past tense, and which article its object takes. */
interface Verb {
  past: string;
  /** 'a' for things brought into being (Created an issue), 'the' otherwise. */
  article: 'a' | 'the';
  /** Preposition before the query-like argument ("Searched … for X"). */
  queryPreposition?: string;
}

const VERBS: Record<string, Verb> = {};
function verbs(names: string, past: string, article: 'a' | 'the' = 'the', queryPreposition?: string): void {
  for (const name of names.split(' ')) VERBS[name] = { past, article, queryPreposition };
}
verbs('get retrieve load obtain pull', 'Retrieved', 'the', 'for');
verbs('fetch', 'Fetched', 'the', 'for');
verbs('lookup', 'Looked up', 'the', 'for');
verbs('search find grep seek', 'Searched', 'the', 'for');
verbs('query', 'Queried', 'the', 'for');
verbs('create new make', 'Created', 'a');
verbs('add insert append', 'Added', 'a');
verbs('send', 'Sent', 'a');
verbs('post', 'Posted', 'a');
verbs('publish', 'Published', 'the');
verbs('notify', 'Notified', 'the');
verbs('email', 'E-mailed', 'the');
verbs('reply respond', 'Replied to', 'the');
verbs('comment', 'Commented on', 'the');
verbs('read cat', 'Read', 'the');
verbs('open', 'Opened', 'the');
verbs('view show display inspect describe', 'Viewed', 'the');
verbs('write', 'Wrote', 'the');
verbs('save store persist', 'Saved', 'the');
verbs('put', 'Put', 'the');
verbs('list ls enumerate', 'Listed', 'the', 'in');
verbs('delete del rm destroy erase purge', 'Deleted', 'the');
verbs('remove drop', 'Removed', 'the');
verbs('update upsert', 'Updated', 'the');
verbs('edit', 'Edited', 'the');
verbs('modify change', 'Changed', 'the');
verbs('patch', 'Patched', 'the');
verbs('set configure', 'Set', 'the');
verbs('replace', 'Replaced', 'the');
verbs('run exec execute', 'Ran', 'the');
verbs('invoke call trigger', 'Invoked', 'the');
verbs('eval evaluate', 'Evaluated', 'the');
verbs('move mv', 'Moved', 'the');
verbs('copy cp', 'Copied', 'the');
verbs('rename', 'Renamed', 'the');
verbs('upload', 'Uploaded', 'the');
verbs('download', 'Downloaded', 'the');
verbs('install', 'Installed', 'the');
verbs('uninstall', 'Uninstalled', 'the');
verbs('deploy', 'Deployed', 'the');
verbs('build compile', 'Built', 'the');
verbs('test', 'Tested', 'the');
verbs('check verify', 'Checked', 'the');
verbs('validate', 'Validated', 'the');
verbs('calculate calc compute', 'Calculated', 'the');
verbs('convert', 'Converted', 'the');
verbs('translate', 'Translated', 'the');
verbs('summarize summarise', 'Summarised', 'the');
verbs('analyze analyse', 'Analysed', 'the');
verbs('parse', 'Parsed', 'the');
verbs('generate', 'Generated', 'a');
verbs('schedule', 'Scheduled', 'a');
verbs('book reserve', 'Booked', 'a');
verbs('cancel', 'Cancelled', 'the');
verbs('close', 'Closed', 'the');
verbs('merge', 'Merged', 'the');
verbs('commit', 'Committed', 'the');
verbs('push', 'Pushed', 'the');
verbs('clone', 'Cloned', 'the');
verbs('start launch', 'Started', 'the');
verbs('stop kill halt', 'Stopped', 'the');
verbs('restart reboot', 'Restarted', 'the');
verbs('assign', 'Assigned', 'the');
verbs('navigate goto visit browse', 'Visited', 'the');
verbs('click', 'Clicked', 'the');
verbs('type', 'Typed', 'the');
verbs('scroll', 'Scrolled', 'the');
verbs('screenshot capture', 'Captured', 'a');
verbs('remember memorize memorise', 'Remembered', 'the');
verbs('recall', 'Recalled', 'the');
verbs('sort', 'Sorted', 'the');
verbs('filter', 'Filtered', 'the');
verbs('count', 'Counted', 'the');
verbs('sync', 'Synced', 'the');
verbs('import', 'Imported', 'the');
verbs('export', 'Exported', 'the');
verbs('subscribe', 'Subscribed to', 'the');
verbs('unsubscribe', 'Unsubscribed from', 'the');
verbs('approve', 'Approved', 'the');
verbs('reject decline', 'Rejected', 'the');
verbs('archive', 'Archived', 'the');
verbs('resolve', 'Resolved', 'the');
verbs('wait sleep', 'Waited', 'the');
verbs('play', 'Played', 'the');
verbs('draw plot render', 'Rendered', 'a');
verbs('fork', 'Forked', 'the');
verbs('tag label', 'Tagged', 'the');
verbs('login signin', 'Logged in to', 'the');
verbs('logout signout', 'Logged out of', 'the');

/** Nouns whose retrieval reads as looking something up. */
const LOOKUP_NOUNS = new Set(
  'weather forecast time date price prices quote stock rate rates exchange definition meaning status info information details location directions distance population news score scores temperature timezone'.split(
    ' ',
  ),
);

/** Tools named by a noun only: what calling them means. */
const NOUN_TOOLS: Record<string, { past: string; object: string; queryPreposition?: string }> = {
  weather: { past: 'Looked up', object: 'the weather', queryPreposition: 'for' },
  forecast: { past: 'Looked up', object: 'the forecast', queryPreposition: 'for' },
  calculator: { past: 'Calculated', object: '' },
  calc: { past: 'Calculated', object: '' },
  bash: { past: 'Ran', object: 'a shell command' },
  shell: { past: 'Ran', object: 'a shell command' },
  terminal: { past: 'Ran', object: 'a terminal command' },
  python: { past: 'Ran', object: 'Python code' },
  browser: { past: 'Used', object: 'the browser' },
  wikipedia: { past: 'Searched', object: 'Wikipedia', queryPreposition: 'for' },
  google: { past: 'Searched', object: 'Google', queryPreposition: 'for' },
  glob: { past: 'Listed', object: 'files matching' },
  memory: { past: 'Used', object: 'memory' },
  translator: { past: 'Translated', object: '' },
  time: { past: 'Looked up', object: 'the time', queryPreposition: 'in' },
  clock: { past: 'Looked up', object: 'the time', queryPreposition: 'in' },
};

/** Known brand spellings for namespaces and objects. */
const BRANDS: Record<string, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  slack: 'Slack',
  discord: 'Discord',
  jira: 'Jira',
  linear: 'Linear',
  notion: 'Notion',
  google: 'Google',
  gmail: 'Gmail',
  gdrive: 'Google Drive',
  drive: 'Drive',
  calendar: 'Calendar',
  gcal: 'Google Calendar',
  outlook: 'Outlook',
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
  twitter: 'Twitter',
  x: 'X',
  reddit: 'Reddit',
  youtube: 'YouTube',
  spotify: 'Spotify',
  stripe: 'Stripe',
  postgres: 'Postgres',
  postgresql: 'PostgreSQL',
  mysql: 'MySQL',
  sqlite: 'SQLite',
  redis: 'Redis',
  mongo: 'MongoDB',
  mongodb: 'MongoDB',
  s3: 'S3',
  aws: 'AWS',
  gcp: 'GCP',
  azure: 'Azure',
  docker: 'Docker',
  kubernetes: 'Kubernetes',
  k8s: 'Kubernetes',
  npm: 'npm',
  pypi: 'PyPI',
  wikipedia: 'Wikipedia',
  arxiv: 'arXiv',
  confluence: 'Confluence',
  trello: 'Trello',
  asana: 'Asana',
  figma: 'Figma',
  hubspot: 'HubSpot',
  salesforce: 'Salesforce',
  zendesk: 'Zendesk',
  sentry: 'Sentry',
  datadog: 'Datadog',
  grafana: 'Grafana',
  vercel: 'Vercel',
  netlify: 'Netlify',
  openai: 'OpenAI',
  nats: 'NATS',
  sql: 'SQL',
  api: 'API',
  url: 'URL',
  pr: 'pull request',
  prs: 'pull requests',
  repo: 'repository',
  repos: 'repositories',
  dm: 'direct message',
  msg: 'message',
  db: 'database',
  dir: 'directory',
  env: 'environment',
  config: 'configuration',
  doc: 'document',
  docs: 'documents',
  info: 'information',
};

/** Namespace segments that add nothing ("mcp__github__create_issue" → github). */
const SILENT_NAMESPACES = new Set(
  'mcp functions function tools tool default_api default api builtin builtins local system os fs filesystem file files shell bash web browser server plugin plugins ext'.split(
    ' ',
  ),
);

/** Object words that are the web itself: search_web → "the web". */
const OBJECT_PHRASES: Record<string, string> = {
  web: 'the web',
  internet: 'the web',
  online: 'the web',
  'web page': 'the web page',
  webpage: 'the web page',
  page: 'the page',
  url: 'the URL',
};

type ArgRole = 'query' | 'location' | 'target' | 'path' | 'title' | 'command' | 'id' | 'content' | 'other';

const ROLE_KEYS: Record<Exclude<ArgRole, 'other'>, string[]> = {
  query: [
    'symbol',
    'ticker',
    'query',
    'q',
    'search',
    'search_query',
    'searchquery',
    'term',
    'terms',
    'keyword',
    'keywords',
    'pattern',
    'regex',
    'question',
    'prompt',
    'expression',
    'expr',
    'topic',
  ],
  location: [
    'city',
    'location',
    'place',
    'address',
    'region',
    'country',
    'where',
    'zip',
    'postcode',
    'postal_code',
    'timezone',
  ],
  target: [
    'to',
    'recipient',
    'recipients',
    'channel',
    'channel_id',
    'chat',
    'chat_id',
    'user',
    'username',
    'user_id',
    'email',
    'assignee',
    'repo',
    'repository',
    'project',
    'owner',
    'destination',
    'dest',
    'target',
    'database',
    'table',
    'collection',
    'index',
    'bucket',
    'namespace',
    'branch',
  ],
  path: [
    'path',
    'file',
    'file_path',
    'filepath',
    'filename',
    'file_name',
    'dir',
    'directory',
    'folder',
    'url',
    'uri',
    'href',
    'link',
    'src',
    'source',
    'notebook_path',
  ],
  title: ['title', 'name', 'subject', 'summary', 'label', 'key'],
  command: ['command', 'cmd', 'script', 'code', 'sql', 'statement', 'shell', 'args', 'argv'],
  id: [
    'id',
    'issue',
    'issue_number',
    'issue_id',
    'number',
    'pr',
    'pr_number',
    'pull_number',
    'ticket',
    'ticket_id',
    'message_id',
    'event_id',
    'task_id',
    'item_id',
    'record_id',
    'doc_id',
    'document_id',
    'sha',
    'commit',
    'ref',
  ],
  content: [
    'text',
    'body',
    'content',
    'message',
    'msg',
    'description',
    'note',
    'notes',
    'comment',
    'data',
    'value',
    'payload',
    'input',
    'new_string',
    'old_string',
    'new_str',
    'old_str',
    'patch',
    'diff',
  ],
};

function roleOf(key: string): ArgRole {
  const k = key.toLowerCase().replace(/[-\s]/g, '_');
  const compact = k.replace(/_/g, '');
  for (const [role, keys] of Object.entries(ROLE_KEYS) as [Exclude<ArgRole, 'other'>, string[]][]) {
    if (keys.includes(k) || keys.includes(compact)) return role;
  }
  if (/(^|_)(url|path|file)$/.test(k)) return 'path';
  if (/(^|_)id$/.test(k)) return 'id';
  if (/(^|_)(query|search)$/.test(k)) return 'query';
  return 'other';
}

/** Words of an identifier: camelCase, snake_case, kebab-case, spaces. Lower case. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((word) => word.toLowerCase())
    .filter(Boolean);
}

function brand(word: string): string {
  return BRANDS[word] ?? word;
}

function humanKey(key: string): string {
  return identifierWords(key).join(' ');
}

function clip(value: string, max: number): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

interface Arg {
  key: string;
  role: ArgRole;
  value: unknown;
}

/** Scalars are shown; arrays of scalars are listed briefly; objects are entered one level. */
function flattenArgs(args: Record<string, unknown>, depth = 0): Arg[] {
  const out: Arg[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'object' && !Array.isArray(value) && depth < 1) {
      out.push(...flattenArgs(value as Record<string, unknown>, depth + 1));
    } else {
      out.push({ key, role: roleOf(key), value });
    }
  }
  return out;
}

function showValue(value: unknown, max: number): string | null {
  if (typeof value === 'string') return clip(value, max);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return null; // shown as a flag by the caller
  if (Array.isArray(value)) {
    const scalars = value
      .filter((item) => ['string', 'number'].includes(typeof item))
      .map((item) => clip(String(item), 24));
    if (scalars.length === 0) return `${value.length} item${value.length === 1 ? '' : 's'}`;
    const shown = scalars.slice(0, 3).join(', ');
    return value.length > 3 ? `${shown} and ${value.length - 3} more` : shown;
  }
  return null; // nested objects beyond one level are not described
}

/** Short enough to quote whole: one line, at most 40 characters. */
function isShort(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= 40 && !/[\r\n]/.test(trimmed);
}

function quote(value: string): string {
  return `"${value.replace(/"/g, "'")}"`;
}

function parseArgs(toolArgs: unknown): { args: Record<string, unknown>; raw?: string } {
  if (toolArgs === null || toolArgs === undefined) return { args: {} };
  if (typeof toolArgs === 'string') {
    const trimmed = toolArgs.trim();
    if (!trimmed) return { args: {} };
    if (trimmed.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
          return { args: parsed as Record<string, unknown> };
      } catch {
        // not JSON: a raw argument string
      }
    }
    return { args: {}, raw: trimmed };
  }
  if (Array.isArray(toolArgs)) return { args: { items: toolArgs } };
  if (typeof toolArgs === 'object') return { args: toolArgs as Record<string, unknown> };
  return { args: {}, raw: String(toolArgs) };
}

interface ParsedName {
  namespace: string | null;
  verb: Verb | null;
  verbWord: string | null;
  object: string[];
  words: string[];
}

function parseName(toolName: string): ParsedName {
  const segments = toolName
    .trim()
    .split(/__|[./:]/)
    .filter(Boolean);
  const action = segments.pop() ?? '';
  const namespaces = segments.filter((segment) => !SILENT_NAMESPACES.has(segment.toLowerCase()));
  const namespace = namespaces.length > 0 ? namespaces[namespaces.length - 1] : null;
  const words = identifierWords(action);
  // "look_up" and "lookup" are one verb.
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] === 'look' && words[i + 1] === 'up') {
      joined.push('lookup');
      i++;
    } else if (
      (words[i] === 'log' || words[i] === 'sign') &&
      (words[i + 1] === 'in' || words[i + 1] === 'out')
    ) {
      joined.push(`${words[i] === 'log' ? 'log' : 'sign'}${words[i + 1]}`);
      i++;
    } else joined.push(words[i]);
  }
  let verbWord: string | null = null;
  let object = joined;
  if (joined.length > 0 && VERBS[joined[0]]) {
    verbWord = joined[0];
    object = joined.slice(1);
  } else if (joined.length > 1 && VERBS[joined[joined.length - 1]]) {
    verbWord = joined[joined.length - 1]; // web_search, file_read, issue_create
    object = joined.slice(0, -1);
  }
  return { namespace, verb: verbWord ? VERBS[verbWord] : null, verbWord, object, words: joined };
}

function articleFor(object: string, article: 'a' | 'the'): string {
  if (article === 'the') return 'the';
  return /^[aeiou]/i.test(object) && !/^(uni|use|eu|one)/i.test(object) ? 'an' : 'a';
}

function objectPhrase(words: string[], verb: Verb): string {
  if (words.length === 0) return '';
  const text = words.join(' ');
  if (OBJECT_PHRASES[text]) return OBJECT_PHRASES[text];
  const shown = words.map(brand).join(' ');
  const last = words[words.length - 1];
  const plural =
    /[^s]s$/.test(last) || BRANDS[last]?.endsWith('s') || ['data', 'news', 'people'].includes(last);
  if (plural) return shown;
  return `${articleFor(shown, verb.article)} ${shown}`;
}

/**
 * One past-tense sentence describing a tool call. Tool names are humanised
 * (`get_weather`, `searchWeb`, `github.create_issue`, `mcp__slack__send_message`);
 * arguments are placed by what their keys mean (a query after "for", a path after
 * the object, a recipient after "to", a title in quotes, a command in backticks),
 * the rest briefly in parentheses (at most three). Values are cut at
 * `maxValueChars`; nested objects are entered one level and never dumped.
 */
export function describeToolCall(
  toolName: string,
  toolArgs?: unknown,
  options: DescribeToolCallOptions = {},
): string {
  const maxChars = Math.max(20, options.maxChars ?? 200);
  const maxValue = Math.max(8, options.maxValueChars ?? 60);
  const name = (toolName ?? '').trim() || 'unknown';
  const parsed = parseName(name);
  const { args, raw } = parseArgs(toolArgs);
  const list = flattenArgs(args);

  let past: string;
  let object: string;
  let queryPreposition: string | undefined;
  let objectWords = parsed.object;
  if (parsed.verb) {
    past = parsed.verb.past;
    queryPreposition = parsed.verb.queryPreposition;
    if (parsed.verbWord && ['get', 'fetch', 'retrieve', 'load', 'obtain'].includes(parsed.verbWord)) {
      if (objectWords.some((word) => LOOKUP_NOUNS.has(word))) past = 'Looked up';
    }
    // "search_web_pages" etc. keep their object; "search" alone searches for the query.
    if (parsed.verbWord === 'grep') objectWords = objectWords.length ? objectWords : [];
    object = objectPhrase(objectWords, parsed.verb);
  } else if (parsed.words.length === 1 && NOUN_TOOLS[parsed.words[0]]) {
    const noun = NOUN_TOOLS[parsed.words[0]];
    past = noun.past;
    object = noun.object;
    queryPreposition = noun.queryPreposition;
  } else if (
    parsed.words.length > 0 &&
    parsed.words.every((word) => LOOKUP_NOUNS.has(word) || word === 'current')
  ) {
    past = 'Looked up';
    object = `the ${parsed.words.join(' ')}`;
    queryPreposition = 'for';
  } else {
    past = 'Used';
    object = `the tool ${name}`;
  }
  let namespacePhrase = '';
  if (parsed.namespace && !(past === 'Used' && object.startsWith('the tool '))) {
    const lower = parsed.namespace.toLowerCase();
    namespacePhrase = `on ${BRANDS[lower] ?? parsed.namespace}`;
  }
  const searching = queryPreposition !== undefined && /^(Searched|Queried|Looked up|Listed)$/.test(past);

  // Place the arguments.
  const used = new Set<Arg>();
  const pick = (role: ArgRole): Arg | undefined => {
    const found = list.find(
      (arg) => arg.role === role && !used.has(arg) && showValue(arg.value, maxValue) !== null,
    );
    if (found) used.add(found);
    return found;
  };
  const pieces: string[] = [];
  const command = pick('command');
  const path = pick('path');
  const id = pick('id');
  const title = pick('title');
  const query = pick('query');
  const locations: Arg[] = [];
  for (let location = pick('location'); location; location = pick('location')) locations.push(location);
  const target = pick('target');
  // A short text argument is the point of the call ("Sent a message "Deploy done"").
  let content: Arg | undefined;
  if (!title && !query && !command) {
    content = list.find(
      (arg) =>
        arg.role === 'content' &&
        typeof arg.value === 'string' &&
        isShort(arg.value) &&
        !/^(old|new)[_A-Z]/.test(arg.key),
    );
    if (content) used.add(content);
  }

  if (command) pieces.push(`\`${clip(String(showValue(command.value, maxValue)), maxValue)}\``);
  if (path && !searching) pieces.push(String(showValue(path.value, maxValue)));
  if (id) {
    const value = String(showValue(id.value, maxValue));
    pieces.push(
      /^\d+$/.test(value) && /issue|pr|pull|number|ticket/.test(id.key.toLowerCase()) ? `#${value}` : value,
    );
  }
  if (title) pieces.push(quote(String(showValue(title.value, maxValue))));
  if (content) pieces.push(quote(String(showValue(content.value, maxValue))));
  if (query) {
    const shown = String(showValue(query.value, maxValue));
    if (/^(expression|expr)$/i.test(query.key)) pieces.push(`\`${shown}\``);
    else pieces.push(queryPreposition ? `${queryPreposition} ${quote(shown)}` : quote(shown));
  }
  if (locations.length > 0) {
    const where = locations.map((arg) => String(showValue(arg.value, maxValue))).join(', ');
    pieces.push(query ? `in ${where}` : `${queryPreposition ?? 'for'} ${where}`);
  }
  if (path && searching) pieces.push(`in ${String(showValue(path.value, maxValue))}`);
  if (target) {
    const preposition = /repo|project|owner|database|table|collection|index|bucket|namespace|branch/.test(
      target.key.toLowerCase(),
    )
      ? 'in'
      : 'to';
    pieces.push(`${preposition} ${String(showValue(target.value, maxValue))}`);
  }
  if (raw !== undefined && pieces.length === 0) {
    if (past === 'Ran') pieces.push(`\`${clip(raw, maxValue)}\``);
    else
      pieces.push(
        queryPreposition ? `${queryPreposition} ${quote(clip(raw, maxValue))}` : quote(clip(raw, maxValue)),
      );
  }
  if (namespacePhrase) pieces.push(namespacePhrase);

  // Everything else, briefly.
  const extras: string[] = [];
  for (const arg of list) {
    if (used.has(arg) || extras.length >= 3) continue;
    if (typeof arg.value === 'boolean') {
      if (arg.value) extras.push(humanKey(arg.key));
      continue;
    }
    if (arg.role === 'content' && typeof arg.value === 'string') {
      extras.push(
        isShort(arg.value)
          ? `${humanKey(arg.key)} ${quote(arg.value.trim())}`
          : `${arg.value.length} characters of ${humanKey(arg.key)}`,
      );
      continue;
    }
    const value = showValue(arg.value, Math.min(maxValue, 40));
    const extra = `${humanKey(arg.key)} ${value}`;
    if (value !== null && !extras.includes(extra)) extras.push(extra);
  }
  const displayable = (arg: Arg): boolean =>
    typeof arg.value === 'boolean' ? arg.value : showValue(arg.value, maxValue) !== null;
  const omitted = list.filter((arg) => !used.has(arg) && displayable(arg)).length - extras.length;
  if (omitted > 0 && extras.length > 0) extras.push(`${omitted} more`);

  const head = [past, object].filter(Boolean).join(' ');
  const build = (withExtras: boolean): string => {
    let sentence = [head, ...pieces].join(' ');
    if (withExtras && extras.length > 0) sentence += ` (${extras.join(', ')})`;
    return `${sentence.replace(/\s+/g, ' ').trim()}.`;
  };
  let sentence = build(true);
  if (sentence.length > maxChars) sentence = build(false);
  if (sentence.length > maxChars)
    sentence = `${clip(sentence.slice(0, -1), maxChars - 1)}`.replace(/…?$/, '…');
  return sentence;
}
