import type { ProcessSpec, TestEnvironment } from '@engram/testing';

/** What an example printed when run as a user runs it. */
export interface ExampleRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What one program under examples/ needs running and must print and leave behind. */
export interface ExampleExpectation {
  /** Services beyond ingest, retrieval and context-builder the example needs. */
  readonly processes?: readonly ProcessSpec[];
  /** Environment beyond NATS_URL the example reads (a fake model's URL, say). */
  readonly env?: (env: TestEnvironment) => Promise<Record<string, string>> | Record<string, string>;
  check(run: ExampleRun, env: TestEnvironment): Promise<void>;
}

/** How many messages of the tenant acme's conversation with this session key are stored. */
export function storedMessages(env: TestEnvironment, sessionKey: string): Promise<number> {
  return env.count(
    `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE c.tenant_id = 'acme' AND c.session_key = $1`,
    [sessionKey],
  );
}
