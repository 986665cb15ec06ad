import { diaIdKey } from '../locomo/evidence';
import { TurnIndex } from './turn-index';

describe('TurnIndex', () => {
  const rows = [
    { id: '1', agent: 'conv-1', turnId: 'D1:1' },
    { id: '2', agent: 'conv-1', turnId: 'D30:05' },
    { id: '3', agent: 'conv-2', turnId: 'D1:1' },
  ];
  const index = new TurnIndex(rows, diaIdKey);

  it('maps a message to its (normalised) turn within its own conversation only', () => {
    expect(index.turnOf('1', 'conv-1')).toBe('D1:1');
    expect(index.turnOf('2', 'conv-1')).toBe('D30:5');
    expect(index.turnOf('3', 'conv-1')).toBeUndefined();
    expect(index.turnOf('99', 'conv-1')).toBeUndefined();
  });

  it('lists the ingested turns of each conversation', () => {
    expect([...index.turnsOf('conv-1')]).toEqual(['D1:1', 'D30:5']);
    expect([...index.turnsOf('conv-2')]).toEqual(['D1:1']);
    expect(index.turnsOf('conv-9').size).toBe(0);
  });

  it('keeps turn ids as stored unless told how the evidence spells them', () => {
    expect(new TurnIndex(rows).turnOf('2', 'conv-1')).toBe('D30:05');
  });
});
