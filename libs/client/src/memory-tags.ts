import { parseMemoryTags } from '@engram/memory-core';

/**
 * The reply as the user should see it: every well-formed `[MEMORY:…]…[/MEMORY]` and
 * `[STATE:…]…[/STATE]` tag removed, exactly as ingest stores the message (the same parser), so
 * the runtime can show it while publishing the reply as the model wrote it.
 */
export function withoutMemoryTags(reply: string): string {
  return parseMemoryTags(reply).display;
}
