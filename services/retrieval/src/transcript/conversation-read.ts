import { RpcError } from '@engram/messaging';
import type { EntityManager, TenantTransactions } from '@engram/store';

/**
 * `read` of one conversation, in a transaction acting for the tenant; NOT_FOUND unless the
 * conversation is the tenant's (row-level security hides everyone else's, as it hides an
 * unknown id).
 */
export async function readOfConversation<T>(
  transactions: TenantTransactions,
  tenantId: string,
  conversationId: string,
  read: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const answer = await transactions.run(tenantId, async (manager) => {
    const found: unknown[] = await manager.query(`SELECT 1 FROM conversations WHERE id = $1`, [
      conversationId,
    ]);
    return found.length > 0 ? { value: await read(manager) } : null;
  });
  if (answer === null)
    throw RpcError.notFound(`conversation ${conversationId} not found`, { conversationId });
  return answer.value;
}
