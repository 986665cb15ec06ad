import { Foreground } from './foreground';

describe('Foreground', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  const settled = async (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    return done;
  };

  it('lets a load go on at once when no search is running', async () => {
    expect(await settled(new Foreground().quiet(20))).toBe(true);
  });

  it('holds a load while a search runs and lets it go when the search ends', async () => {
    const foreground = new Foreground();
    let finish!: () => void;
    const search = foreground.run(() => new Promise<void>((r) => (finish = r)));
    const quiet = foreground.quiet(1000);
    expect(await settled(quiet)).toBe(false);
    finish();
    await search;
    expect(await settled(quiet)).toBe(true);
  });

  it('never holds a load longer than its bound, however long searches run', async () => {
    const foreground = new Foreground();
    void foreground.run(() => new Promise<void>(() => undefined));
    const quiet = foreground.quiet(20);
    expect(await settled(quiet)).toBe(false);
    jest.advanceTimersByTime(20);
    expect(await settled(quiet)).toBe(true);
  });
});
