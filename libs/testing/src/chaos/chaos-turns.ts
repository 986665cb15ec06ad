export interface ChaosTurn {
  readonly tenant: string;
  readonly agent: string;
  readonly sessionKey: string;
  readonly turnId: string;
  readonly messages: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly content: string }>;
}

/** What the users say: plain sentences, some of them facts the built-in model extracts. */
const SENTENCES = [
  'I moved to Lisbon last spring and I love the light there.',
  'My favourite drink is coffee, black, no sugar.',
  'The invoice for the garden work is due on Friday.',
  'Sam plays the piano every evening after dinner.',
  'Remind me about the deadline for the tax return.',
  'My sister’s birthday is on the twelfth of March.',
  'We decided to use Postgres for the new project.',
  'The meeting with the landlord went well today.',
];

/**
 * The n-th turn of a chaos run, the same every run: tenants and agents in turn, four sessions
 * each, one to four messages alternating user and assistant, each message unique by its turn
 * and position.
 */
export function chaosTurn(n: number, tenants: readonly string[], agents: readonly string[]): ChaosTurn {
  const tenant = tenants[n % tenants.length]!;
  const agent = agents[Math.floor(n / tenants.length) % agents.length]!;
  const sessionKey = `session-${Math.floor(n / (tenants.length * agents.length)) % 4}`;
  const turnId = `chaos-${n}`;
  const size = 1 + ((n * 7) % 4);
  const messages = Array.from({ length: size }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `${turnId}/${i}: ${SENTENCES[(n + i) % SENTENCES.length]}`,
  }));
  return { tenant, agent, sessionKey, turnId, messages };
}
