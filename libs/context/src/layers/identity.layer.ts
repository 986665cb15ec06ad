import type { AgentProfileInput } from '../assembly/context-inputs';
import { isoDay, longDay } from './day';

/** "You are [name]. [personality]", the agent's job, today's date and the user's name. */
export function identityText(agent: AgentProfileInput, asOf: Date): string {
  const lines = [
    [`You are ${agent.name?.trim() || agent.agent}.`, agent.personality?.trim()].filter(Boolean).join(' '),
  ];
  if (agent.job?.trim()) lines.push(`Your job: ${agent.job.trim()}`);
  lines.push(`Today is ${longDay(asOf)} (${isoDay(asOf)}).`);
  if (agent.userName?.trim()) lines.push(`The user's name is ${agent.userName.trim()}.`);
  return lines.join('\n');
}
