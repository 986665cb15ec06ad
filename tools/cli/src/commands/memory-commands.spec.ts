import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { RpcError } from '@engram/messaging';
import { EXIT_BAD_INPUT, EXIT_UNAVAILABLE, failureOf, UsageError } from './cli-failure';
import { factsCommand, forgetCommand, saveCommand, stateCommand } from './facts.command';
import { contextCommand, contextRequest } from './context.command';
import { instant } from './engram-rpc';
import { browseCommand, searchCommand, searchRequest, statsCommand } from './search.command';
import { exportCommand, importCommand } from './transcript.command';
import { eraseCommand } from './erase.command';

/** Runs a command as the engram program would, its output captured: what it printed and its exit code. */
async function run(
  command: Command,
  args: string[],
): Promise<{ exitCode: number; stderr: string; stdout: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (c: Command): void => {
    c.exitOverride().configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => err.push(s) });
    c.commands.forEach(capture);
  };
  capture(command);
  try {
    await command.parseAsync(args, { from: 'user' });
    return { exitCode: 0, stdout: out.join(''), stderr: err.join('') };
  } catch (error) {
    const failure = failureOf(error);
    return {
      exitCode: failure.exitCode,
      stdout: out.join(''),
      stderr: [...err, ...failure.lines].join('\n'),
    };
  }
}

describe('the engram memory commands', () => {
  // Nothing listens here: a command that got as far as connecting would exit 1, not 2.
  const natsUrl = process.env['NATS_URL'];
  let dir: string;

  beforeAll(() => {
    process.env['NATS_URL'] = 'nats://127.0.0.1:1';
    dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
  });

  afterAll(() => {
    if (natsUrl === undefined) delete process.env['NATS_URL'];
    else process.env['NATS_URL'] = natsUrl;
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it.each([
    ['search', searchCommand],
    ['browse', browseCommand],
    ['stats', statsCommand],
    ['context', contextCommand],
    ['save', saveCommand],
    ['forget', forgetCommand],
    ['import', importCommand],
    ['export', exportCommand],
    ['erase', eraseCommand],
  ])('%s --help shows examples', async (name, make) => {
    const { exitCode, stdout } = await run(make(), ['--help']);
    expect(exitCode).toBe(0);
    expect(stdout).toContain('--tenant <tenant>');
    expect(stdout).toContain('--json');
    expect(stdout).toMatch(new RegExp(`Examples:\\n  \\$ engram ${name} --tenant acme`));
  });

  it.each([
    ['facts list --help', factsCommand, ['list', '--help'], 'engram facts list --tenant acme'],
    ['facts get --help', factsCommand, ['get', '--help'], 'engram facts get --tenant acme 42'],
    ['facts update --help', factsCommand, ['update', '--help'], 'engram facts update --tenant acme 42'],
    [
      'state get --help',
      stateCommand,
      ['get', '--help'],
      'engram state get --tenant acme --agent helper current_project',
    ],
    ['state list --help', stateCommand, ['list', '--help'], 'engram state list --tenant acme --agent helper'],
  ])('%s shows examples', async (_, make, args, example) => {
    const { exitCode, stdout } = await run(make(), args);
    expect(exitCode).toBe(0);
    expect(stdout).toContain(example);
  });

  it.each([
    [
      'search metric units',
      searchCommand,
      ['metric units'],
      "required option '--tenant <tenant>' not specified",
    ],
    [
      'search --tenant acme --top-k 500 x',
      searchCommand,
      ['--tenant', 'acme', '--top-k', '500', 'x'],
      'expected a whole number from 1 to 100',
    ],
    [
      'search --tenant acme --from yesterday x',
      searchCommand,
      ['--tenant', 'acme', '--from', 'yesterday', 'x'],
      'expected a date or time',
    ],
    ['search --tenant acme', searchCommand, ['--tenant', 'acme'], "missing required argument 'query'"],
    [
      'search --tenant acme --as-of soon x',
      searchCommand,
      ['--tenant', 'acme', '--as-of', 'soon', 'x'],
      "option '--as-of <date-time>' argument 'soon' is invalid. expected a date or time",
    ],
    [
      'context --tenant acme --agent a --as-of yesterday hi',
      contextCommand,
      ['--tenant', 'acme', '--agent', 'a', '--as-of', 'yesterday', 'hi'],
      'expected a date or time',
    ],
    [
      'context --tenant acme hi',
      contextCommand,
      ['--tenant', 'acme', 'hi'],
      "required option '--agent <agent>' not specified",
    ],
    [
      'browse --tenant acme --conversation chat-7',
      browseCommand,
      ['--tenant', 'acme', '--conversation', 'chat-7'],
      'expected an id (a number)',
    ],
    [
      'save --tenant acme Ada likes tea.',
      saveCommand,
      ['--tenant', 'acme', 'Ada likes tea.'],
      "required option '--agent <agent>' not specified",
    ],
    [
      'save --tenant acme --agent a --importance 11 x',
      saveCommand,
      ['--tenant', 'acme', '--agent', 'a', '--importance', '11', 'x'],
      'from 1 to 10',
    ],
    [
      'facts list --tenant acme --limit 0',
      factsCommand,
      ['list', '--tenant', 'acme', '--limit', '0'],
      'from 1 to 1000',
    ],
    [
      'state get --tenant acme current_project',
      stateCommand,
      ['get', '--tenant', 'acme', 'current_project'],
      "required option '--agent <agent>'",
    ],
    [
      'import --tenant acme --format xml f',
      importCommand,
      ['--tenant', 'acme', '--format', 'xml', 'f'],
      'Allowed choices are jsonl, locomo',
    ],
    [
      'search --tenant acme.corp x',
      searchCommand,
      ['--tenant', 'acme.corp', 'x'],
      '--tenant must be 1-64 letters, digits, "_" or "-" (got "acme.corp")',
    ],
    [
      'state list --tenant acme --agent a b',
      stateCommand,
      ['list', '--tenant', 'acme', '--agent', 'a b'],
      '--agent must be 1-64 letters',
    ],
    [
      'erase --tenant acme (the whole tenant, unconfirmed)',
      eraseCommand,
      ['--tenant', 'acme'],
      'erasing everything tenant acme remembers cannot be undone: add --yes',
    ],
    [
      'erase --tenant acme --agent a --conversation 12',
      eraseCommand,
      ['--tenant', 'acme', '--agent', 'a', '--conversation', '12'],
      'give --agent or --conversation, not both',
    ],
    [
      'erase --tenant acme --conversation chat-7',
      eraseCommand,
      ['--tenant', 'acme', '--conversation', 'chat-7'],
      'expected an id (a number)',
    ],
    [
      'erase --tenant acme --agent a.b',
      eraseCommand,
      ['--tenant', 'acme', '--agent', 'a.b'],
      '--agent must be 1-64 letters',
    ],
  ])('%s exits 2, saying why', async (_, make, args, message) => {
    const { exitCode, stderr } = await run(make(), args);
    expect({ exitCode, stderr }).toEqual({
      exitCode: EXIT_BAD_INPUT,
      stderr: expect.stringContaining(message),
    });
  });

  it('asks search and context build as of the moment --as-of names', () => {
    const asOf = instant('2026-03-01T12:00:00Z');
    expect(searchRequest('x', { expand: true, asOf }).asOf).toEqual(asOf);
    expect(searchRequest('x', { expand: true }).asOf).toBeUndefined();
    expect(contextRequest('hi', { agent: 'a', asOf })).toMatchObject({ agent: 'a', asOf });
  });

  it('refuses a transcript file with a bad line before publishing anything, naming each line', async () => {
    const good = JSON.stringify({
      turnId: 't1',
      sessionKey: 's',
      agent: 'a',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const path = file(
      'bad.jsonl',
      [good, '{"turnId": "t2", "sessionKey": "s", "agent": "a", "messages": []}', '', 'not json', good].join(
        '\n',
      ),
    );
    const { exitCode, stderr } = await run(importCommand(), ['--tenant', 'acme', path]);
    expect(exitCode).toBe(EXIT_BAD_INPUT);
    expect(stderr).toContain('2 line(s) cannot be published, so nothing was');
    expect(stderr).toContain('line 2: messages: a turn needs at least one message');
    expect(stderr).toMatch(/line 4: not a TurnEvent: /);
  });

  it('sends a LoCoMo file’s conversations to their own agents: --agent only for a file of one', async () => {
    const sample = (id: string) => ({
      sample_id: id,
      conversation: {
        speaker_a: 'Ann',
        speaker_b: 'Bob',
        session_1: [{ speaker: 'Ann', dia_id: 'D1:1', text: 'Hi.' }],
        session_1_date_time: '1:56 pm on 8 May, 2023',
      },
      qa: [],
    });
    const path = file('locomo.json', JSON.stringify([sample('conv-1'), sample('conv-2')]));
    const { exitCode, stderr } = await run(importCommand(), ['--tenant', 'acme', '--agent', 'helper', path]);
    expect(exitCode).toBe(EXIT_BAD_INPUT);
    expect(stderr).toContain('holds 2 LoCoMo conversations');
    const notLocomo = file('notlocomo.json', '[{"sample_id": "x"}]');
    expect(await run(importCommand(), ['--tenant', 'acme', notLocomo])).toMatchObject({
      exitCode: EXIT_BAD_INPUT,
      stderr: expect.stringContaining('is not a LoCoMo file'),
    });
  });

  it('exits 1 when Engram cannot be reached', async () => {
    const path = file(
      'ok.jsonl',
      JSON.stringify({
        turnId: 't1',
        sessionKey: 's',
        agent: 'a',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(await run(importCommand(), ['--tenant', 'acme', path])).toMatchObject({
      exitCode: EXIT_UNAVAILABLE,
      stderr: expect.stringContaining('cannot reach NATS'),
    });
    expect(await run(statsCommand(), ['--tenant', 'acme'])).toMatchObject({ exitCode: EXIT_UNAVAILABLE });
    expect(await run(eraseCommand(), ['--tenant', 'acme', '--yes'])).toMatchObject({
      exitCode: EXIT_UNAVAILABLE,
    });
  });
});

describe('failureOf', () => {
  it('lists an INVALID_ARGUMENT’s field violations and exits 2', () => {
    const error = RpcError.invalidArgument('invalid SearchRequest: query is empty; topK must be …', {
      fieldViolations: [
        { field: 'query', description: 'query is empty' },
        { field: 'topK', description: 'topK must be between 1 and 100 (got 500)' },
      ],
    });
    expect(failureOf(error)).toEqual({
      lines: [
        'engram: INVALID_ARGUMENT: invalid SearchRequest: query is empty; topK must be …',
        '  query: query is empty',
        '  topK: topK must be between 1 and 100 (got 500)',
      ],
      exitCode: EXIT_BAD_INPUT,
    });
  });

  it('exits 2 for what the request named wrongly, 1 for what Engram could not do', () => {
    expect(failureOf(RpcError.notFound('fact 9 not found')).exitCode).toBe(EXIT_BAD_INPUT);
    expect(failureOf(RpcError.failedPrecondition('fact 9 is closed')).exitCode).toBe(EXIT_BAD_INPUT);
    expect(failureOf(new UsageError('no such file')).exitCode).toBe(EXIT_BAD_INPUT);
    const unavailable = failureOf(new RpcError('UNAVAILABLE', 'no service answers mem.rpc.search.acme'));
    expect(unavailable).toEqual({
      lines: [
        'engram: UNAVAILABLE: no service answers mem.rpc.search.acme',
        '  is the service that answers it running (npm start)?',
      ],
      exitCode: EXIT_UNAVAILABLE,
    });
    expect(failureOf(new RpcError('DEADLINE_EXCEEDED', 'late')).exitCode).toBe(EXIT_UNAVAILABLE);
    expect(failureOf(new RpcError('INTERNAL', 'boom')).exitCode).toBe(EXIT_UNAVAILABLE);
    expect(failureOf(new Error('disk full')).exitCode).toBe(EXIT_UNAVAILABLE);
  });
});
