import { create, SaveRequestSchema, type MessageInitShape } from '@engram/contracts';
import { factToSave } from './fact-to-save';

const request = (init: MessageInitShape<typeof SaveRequestSchema>) => create(SaveRequestSchema, init);

describe('factToSave', () => {
  it('fills in the defaults: general, sticky, importance by category', () => {
    expect(factToSave(request({ agent: 'helper', content: '  The user is called Ada.  ' }))).toEqual({
      agent: 'helper',
      content: 'The user is called Ada.',
      category: 'general',
      lifetime: 'sticky',
      importance: 4,
      conversationId: null,
      sourceMessageIds: [],
      metadata: {},
      validFrom: null,
      validTo: null,
      key: null,
    });
    expect(factToSave(request({ agent: 'helper', content: 'x', category: 'Correction' }))).toMatchObject({
      category: 'correction',
      importance: 9,
    });
  });

  it('keeps what was given, each source once', () => {
    expect(
      factToSave(
        request({
          agent: 'helper',
          content: 'Deploys happen on Fridays',
          category: 'decision',
          lifetime: ' Project_Context ',
          importance: 3,
          conversationId: '12',
          sourceMessageIds: ['5', '6', '5'],
        }),
      ),
    ).toMatchObject({
      category: 'decision',
      lifetime: 'project_context',
      importance: 3,
      conversationId: '12',
      sourceMessageIds: ['5', '6'],
    });
  });
});
