import { ConversationEntity } from './conversation.entity';
import { FactEntity } from './fact.entity';
import { MessageEntity } from './message.entity';
import { StateEntity } from './state.entity';
import { TenantEntity } from './tenant.entity';

export { ConversationEntity, FactEntity, MessageEntity, StateEntity, TenantEntity };
export const ENTITIES = [TenantEntity, ConversationEntity, MessageEntity, FactEntity, StateEntity];
