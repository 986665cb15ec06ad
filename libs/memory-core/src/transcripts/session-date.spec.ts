import { parseSessionDate } from './session-date';

describe('LoCoMo session dates', () => {
  it.each([
    ['1:56 pm on 8 May, 2023', '2023-05-08T13:56:00.000Z'],
    ['12:48 am on 1 February, 2023', '2023-02-01T00:48:00.000Z'],
    ['11:01 am on 17 December, 2022', '2022-12-17T11:01:00.000Z'],
  ])('reads %j as UTC', (text, iso) => {
    expect(parseSessionDate(text)?.toISOString()).toBe(iso);
  });

  it.each(['8 May, 2023', '1:56 pm on 8 May', 'yesterday', ''])(
    'refuses %j (not a full date and time)',
    (text) => {
      expect(parseSessionDate(text)).toBeNull();
    },
  );
});
