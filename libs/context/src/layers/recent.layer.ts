import type { RecentMessageInput } from '../assembly/context-inputs';
import {
  fillDocument,
  shareFull,
  type BlockRole,
  type ContextBlock,
  type ContextCut,
  type LayerFill,
} from '../assembly/layer-fill';
import type { TokenCounter } from '../tokens/token-counter';

function roleOf(message: RecentMessageInput): BlockRole {
  return message.role === 'tool' ? 'assistant' : message.role;
}

function textOf(message: RecentMessageInput): string {
  return message.role === 'tool'
    ? `[tool ${message.toolName ?? ''}] ${message.content}`.replace('[tool ]', '[tool]')
    : message.content;
}

/**
 * The last messages, newest first while they fit, shown oldest first; the conversation
 * stays contiguous, so the first that does not fit ends it. The newest message is never
 * dropped for its size: it is truncated instead. A stored copy of the current message
 * (the runtime published it before asking) is not repeated.
 */
export function recentLayer(
  messages: readonly RecentMessageInput[],
  currentMessage: string,
  counter: TokenCounter,
): LayerFill {
  const newest = messages[messages.length - 1];
  const shown =
    newest && newest.role === 'user' && newest.content.trim() === currentMessage.trim()
      ? messages.slice(0, -1)
      : messages;
  return (cap) => {
    const blocks: ContextBlock[] = [];
    const cut: ContextCut[] = [];
    let used = 0;
    let full = false;
    for (let i = shown.length - 1; i >= 0; i--) {
      const message = shown[i]!;
      const text = textOf(message);
      const sourceIds = [`message:${message.id}`];
      const tokens = counter.count(text);
      if (!full && used + tokens <= cap) {
        blocks.push({ role: roleOf(message), layer: 'recent', text, tokens, sourceIds });
        used += tokens;
        continue;
      }
      if (!full && blocks.length === 0) {
        const fitted = fillDocument({
          layer: 'recent',
          role: roleOf(message),
          text,
          sourceIds,
          counter,
          cap,
        });
        blocks.push(...fitted.blocks);
        cut.push(...fitted.cut);
        used += fitted.used;
      } else cut.push({ layer: 'recent', reason: shareFull('recent', cap), tokens, sourceIds });
      full = true;
    }
    return { blocks: blocks.reverse(), cut, used };
  };
}
