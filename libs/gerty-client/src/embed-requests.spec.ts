import { embedRequests, MAX_EMBED_CHARS } from './embed-requests';

describe('embedRequests', () => {
  it('keeps every text in order, in requests whose answers fit a NATS message', () => {
    const texts = Array.from({ length: 1200 }, (_, i) => `scene ${i}`);
    const requests = [...embedRequests(texts, 100)];
    expect(requests.flat()).toEqual(texts);
    // 600 kB of answer at 100 numbers × 12 bytes: 500 texts a request.
    expect(requests.map((r) => r.length)).toEqual([500, 500, 200]);
  });

  it('sends fewer texts per request for wider vectors, at least one', () => {
    expect([...embedRequests(['a', 'b', 'c'], 100_000)].map((r) => r.length)).toEqual([1, 1, 1]);
  });

  it('cuts by the texts’ length too, and clips a text no model reads whole', () => {
    const long = 'x'.repeat(MAX_EMBED_CHARS + 10);
    const requests = [
      ...embedRequests(
        Array.from({ length: 20 }, () => long),
        100,
      ),
    ];
    expect(requests[0]!.length).toBe(Math.floor(400_000 / MAX_EMBED_CHARS));
    expect(requests.flat().every((t) => t.length === MAX_EMBED_CHARS)).toBe(true);
  });
});
