import { detectAll } from 'tinyld';
import { DECIDING_LETTERS, languageCodeOf, proseOf, textSearchOf as textSearchWith } from './text-language';

const textSearchOf = (texts: readonly string[]) => textSearchWith(texts, detectAll);

const ITALIAN = [
  'Ciao! Ho comprato due gatti ieri al mercato del paese.',
  'Che bello! Come si chiamano i tuoi gatti?',
  'Si chiamano Micio e Fufi, sono fratelli e dormono sempre insieme sul divano del salotto.',
  'Devi portarli dal veterinario per le vaccinazioni prima della fine del mese prossimo.',
];
const ENGLISH = [
  'Hey Mel! Good to see you!',
  'I went to the support group yesterday and it was so powerful to hear everyone talk.',
  'That sounds amazing, I am really proud of you for going. What did you talk about there?',
  'Mostly about adoption agencies and how to start the process, which felt like a big step.',
];

describe('textSearchOf', () => {
  it('decides nothing until the prose holds enough letters', () => {
    expect(textSearchOf(['Ho comprato due gatti'])).toBeNull();
    expect(textSearchOf(['ok', 'sì', '👍'])).toBeNull();
    expect(textSearchOf([])).toBeNull();
  });

  it('stems an Italian conversation as Italian, an English one as English', () => {
    expect(textSearchOf(ITALIAN)).toBe('italian');
    expect(textSearchOf(ENGLISH)).toBe('english');
  });

  it('gives other stemmed languages their configuration', () => {
    expect(
      textSearchOf([
        'Ich habe gestern zwei Katzen auf dem Markt gekauft. Sie schlafen immer zusammen auf dem Sofa im Wohnzimmer.',
        'Wie heißen deine Katzen? Du musst sie vor Ende des nächsten Monats zum Tierarzt bringen.',
        'Sie heißen Mimi und Felix, und sie spielen jeden Abend im Garten, bis es dunkel wird.',
      ]),
    ).toBe('german');
    expect(
      textSearchOf([
        'Compré dos gatos ayer en el mercado del pueblo. Duermen siempre juntos en el sofá de la sala.',
        '¿Cómo se llaman tus gatos? Tienes que llevarlos al veterinario antes de fin del mes que viene.',
        'Se llaman Luna y Sol, y juegan en el jardín todas las tardes hasta que se hace de noche.',
      ]),
    ).toBe('spanish');
  });

  it('indexes a language Postgres has no stemmer for with simple', () => {
    expect(
      textSearchOf([
        '我昨天在市场买了两只猫。它们总是一起睡在客厅的沙发上。你的猫叫什么名字？你必须在下个月底之前带它们去看兽医。我们住在北京，天气很好。我们每天早上一起散步，然后喝咖啡，聊聊工作和家庭的事情。周末我们经常去公园看花，或者去博物馆参观新的展览。孩子们很喜欢动物园里的熊猫和老虎。晚上我们一起做饭，看电影，然后早点睡觉。',
        '明天我们要去上海看朋友，他们刚搬到新家。新家离地铁站很近，旁边还有一个很大的超市和一家书店。我们打算在那里住三天，一起去外滩散步，吃小笼包，晚上看看城市的夜景。',
      ]),
    ).toBe('simple');
  });

  it('keeps the default for mixed text, where no language holds the winning share', () => {
    const mixed = [ENGLISH[1]!, ITALIAN[2]!, ENGLISH[3]!, ITALIAN[3]!];
    expect(textSearchOf(mixed)).toBe('english');
  });

  it('decides on the first texts that reach the threshold: later ones cannot flip it', () => {
    const decided = textSearchOf([...ENGLISH, ...ITALIAN, ...ITALIAN, ...ITALIAN]);
    expect(decided).toBe('english');
    expect(ENGLISH.join('').replace(/\P{L}/gu, '').length).toBeGreaterThanOrEqual(DECIDING_LETTERS);
  });

  it('reads prose only: code, tables and addresses do not vote', () => {
    expect(
      proseOf('see https://example.com/a/b and\n| a | b |\n|---|---|\n```js\nconst x = 1;\n```'),
    ).not.toMatch(/example|const|\|/);
    const table = Array.from({ length: 20 }, (_, i) => `| Row ${i} | Description of the field |`).join('\n');
    expect(textSearchOf([table])).toBeNull();
  });
});

describe('languageCodeOf', () => {
  it("names a configuration's language by its ISO 639-1 code, und for simple", () => {
    expect(languageCodeOf('english')).toBe('en');
    expect(languageCodeOf('italian')).toBe('it');
    expect(languageCodeOf('norwegian')).toBe('no');
    expect(languageCodeOf('simple')).toBe('und');
  });
});
