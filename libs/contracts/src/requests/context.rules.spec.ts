import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Rpcs } from '../rpcs';
import { checkRequest } from './request-rules';

describe('mem.rpc.context.build rules', () => {
  const build = (init: MessageInitShape<typeof Rpcs.contextBuild.request>) =>
    Object.fromEntries(
      checkRequest(Rpcs.contextBuild, create(Rpcs.contextBuild.request, init)).map((v) => [
        v.field,
        v.description,
      ]),
    );

  it('accept a request for an agent, in a conversation or a session, at a moment', () => {
    expect(build({ agent: 'helper', currentMessage: 'hi' })).toEqual({});
    expect(
      build({
        agent: 'helper',
        conversationId: '12',
        budgetTokens: 4000,
        asOf: timestampFromDate(new Date()),
      }),
    ).toEqual({});
    expect(build({ agent: 'helper', sessionKey: 'chat-1' })).toEqual({});
  });

  it('refuse each bad field, naming it', () => {
    expect(build({ agent: 'bad agent' })).toEqual({
      agent: 'agent must be 1-64 letters, digits, "_" or "-" (got "bad agent")',
    });
    expect(build({ agent: 'a', conversationId: 'abc' })).toEqual({
      conversationId: '"abc" is not a conversation id',
    });
    expect(build({ agent: 'a', conversationId: '1', sessionKey: 'chat-1' })).toEqual({
      conversationId: 'give conversationId or sessionKey, not both',
    });
    expect(build({ agent: 'a', currentMessage: 'x\u0000' })).toEqual({
      currentMessage: 'currentMessage may not contain NUL characters',
    });
    expect(build({ agent: 'a', budgetTokens: -5 })).toEqual({
      budgetTokens: 'budgetTokens must be positive (or 0 for the model default)',
    });
  });
});
