import { niceTicks, renderPanel, renderSoakChart, type SoakChart } from './soak-chart';

describe('soak chart', () => {
  it('picks round ticks from 0 that cover the largest value', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(97)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(3.2)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(0.42)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(niceTicks(30, 10)).toEqual([0, 5, 10, 15, 20, 25, 30]);
  });

  it('draws each series as a polyline of its points, scaled into the plot', () => {
    const svg = renderPanel(
      {
        title: 'resident memory',
        unit: 'MB',
        series: [
          {
            name: 'ingest',
            points: [
              { x: 0, y: 0 },
              { x: 2, y: 100 },
            ],
          },
          { name: 'retrieval index', points: [{ x: 1, y: 50 }], dashed: true },
        ],
      },
      2,
      0.5,
    );
    const lines = [...svg.matchAll(/<polyline data-series="([^"]+)"[^>]* points="([^"]*)"/g)];
    expect(lines.map((m) => m[1])).toEqual(['ingest', 'retrieval index']);
    // x 0 → the left margin (64), 2 minutes → the plot's right edge (960 − 190); y 0 → the bottom (340 − 40), 100 → the top (34).
    expect(lines[0]![2]).toBe('64.0,300.0 770.0,34.0');
    expect(lines[1]![2]).toBe('417.0,167.0');
    expect(svg).toContain('stroke-dasharray');
    // The warm-up: half a minute of two, shaded.
    expect(svg).toMatch(/<rect x="64" y="34" width="176.5" height="266"/);
  });

  it('writes one self-contained page: a panel per chart, text escaped, nothing fetched', () => {
    const chart: SoakChart = {
      title: 'Soak <30 min>',
      notes: ['rate 20 messages/s & 4 searches/s'],
      minutes: 30,
      warmupMinutes: 5,
      panels: [
        { title: 'resident memory', unit: 'MB', series: [{ name: 'a<b', points: [] }] },
        { title: 'p95', unit: 'ms', series: [] },
      ],
    };
    const html = renderSoakChart(chart);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).toContain('<h1>Soak &lt;30 min&gt;</h1>');
    expect(html).toContain('&amp; 4 searches/s');
    expect(html).toContain('data-series="a&lt;b"');
    expect(html).not.toMatch(/<script|src=|href=/);
  });
});
