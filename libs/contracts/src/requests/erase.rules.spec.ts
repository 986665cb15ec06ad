import type { MessageInitShape } from '@bufbuild/protobuf';
import { create } from '@bufbuild/protobuf';
import { Rpcs } from '../rpcs';
import { eraseScopeOf } from './erase.rules';
import { violationsOf as violations } from './request-rules';

describe('mem.rpc.erase rules', () => {
  const erase = (init: MessageInitShape<typeof Rpcs.erase.request>) => violations(Rpcs.erase, init);

  it('accept exactly one scope, and say which', () => {
    for (const init of [{ agent: 'support-bot' }, { conversationId: '12' }, { wholeTenant: true }]) {
      expect(erase(init)).toEqual({});
    }
    expect(eraseScopeOf(create(Rpcs.erase.request, { agent: 'support-bot' }))).toBe('agent');
    expect(eraseScopeOf(create(Rpcs.erase.request, { conversationId: '12' }))).toBe('conversation');
    expect(eraseScopeOf(create(Rpcs.erase.request, { wholeTenant: true }))).toBe('tenant');
  });

  it('refuse an empty request rather than erase the whole tenant', () => {
    expect(erase({})).toEqual({ agent: 'say what to erase: agent, conversationId, or wholeTenant: true' });
    expect(erase({ wholeTenant: false })).toEqual({
      agent: 'say what to erase: agent, conversationId, or wholeTenant: true',
    });
  });

  it('refuse two scopes at once, and a bad agent or conversation id', () => {
    expect(erase({ agent: 'support-bot', conversationId: '12' })).toEqual({
      conversationId: 'name exactly one scope: agent, conversationId or wholeTenant',
    });
    expect(erase({ agent: 'support-bot', wholeTenant: true })).toEqual({
      wholeTenant: 'name exactly one scope: agent, conversationId or wholeTenant',
    });
    expect(erase({ agent: 'a.b' })).toEqual({
      agent: 'agent must be 1-64 letters, digits, "_" or "-" (got "a.b")',
    });
    expect(erase({ conversationId: 'chat-7' })).toEqual({
      conversationId: '"chat-7" is not a conversation id',
    });
  });
});
