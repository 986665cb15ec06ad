import type { MessageDoc } from './index-docs';
import { TenantIndex } from './tenant-index';

const message = (id: string, words: string[]): MessageDoc => ({
  id,
  conversationId: '1',
  agent: 'helper',
  role: 'user',
  author: null,
  createdAtUs: Number(id) * 1000,
  streamSeq: Number(id),
  position: 0,
  tokenEstimate: words.length,
  asks: false,
  lexemes: words,
});

describe('TenantIndex bytes', () => {
  it('grows with what is applied, and stays as measured while nothing is', () => {
    const index = new TenantIndex('acme');
    index.apply({ messages: [message('1', ['kangaroo'])] });
    const one = index.bytes;
    expect(index.bytes).toBe(one);
    index.accessed(['message:1'], 5);
    expect(index.bytes).toBe(one);
    index.apply({
      messages: Array.from({ length: 200 }, (_, i) => message(String(i + 2), [`word${i}`, 'wombat'])),
    });
    expect(index.bytes).toBeGreaterThan(one);
  });
});
