import type { PoolClient, QueryResult } from 'pg';

export interface ExplainedStatement {
  readonly sql: string;
  /** EXPLAIN (ANALYZE, BUFFERS) as text, one line per element. */
  readonly plan: readonly string[];
  readonly executionMs: number;
}

/**
 * Runs `work` with a client that, before each SELECT it is given (text + values), runs the same
 * statement under EXPLAIN (ANALYZE, BUFFERS) in the same transaction and keeps the plan; the
 * statement itself then runs as usual and its rows go back to the caller. So the plans of
 * whatever a function runs (the floor's statements, whichever they are) can be read without
 * knowing its SQL. Timings of the first run warm the cache for the second.
 */
export async function explainEach(
  client: PoolClient,
  work: (client: PoolClient) => Promise<void>,
): Promise<ExplainedStatement[]> {
  const explained: ExplainedStatement[] = [];
  const query = async (text: unknown, values?: unknown[]): Promise<QueryResult> => {
    if (typeof text === 'string' && /^\s*(SELECT|WITH)\b/i.test(text) && !/set_config\(/i.test(text)) {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
        values,
      );
      const plan = rows.map((r) => r['QUERY PLAN']);
      const execution = plan.map((line) => /Execution Time: ([\d.]+) ms/.exec(line)).find(Boolean);
      explained.push({
        sql: text.replace(/\s+/g, ' ').trim(),
        plan,
        executionMs: execution ? Number(execution[1]) : NaN,
      });
    }
    return client.query(text as string, values);
  };
  const proxy = new Proxy(client, {
    get: (target, property, receiver) =>
      property === 'query' ? query : Reflect.get(target, property, receiver),
  });
  await work(proxy);
  return explained;
}
