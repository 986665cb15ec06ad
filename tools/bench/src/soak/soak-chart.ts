/** One line of a chart: points of (minutes, value). */
export interface ChartSeries {
  readonly name: string;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  readonly dashed?: boolean;
}

/** One chart: its lines over minutes of the run, with the warm-up shaded. */
export interface ChartPanel {
  readonly title: string;
  readonly unit: string;
  readonly series: readonly ChartSeries[];
}

export interface SoakChart {
  readonly title: string;
  /** Lines of text under the title (settings, headline figures). */
  readonly notes: readonly string[];
  readonly minutes: number;
  readonly warmupMinutes: number;
  readonly panels: readonly ChartPanel[];
}

const WIDTH = 960;
const HEIGHT = 340;
const MARGIN = { left: 64, right: 190, top: 34, bottom: 40 };
/** Distinguishable on white, in a fixed order (a service keeps its colour between runs). */
const COLOURS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
  '#bcbd22',
];

/** About `count` round tick values from 0 covering `max` (steps of 1, 2 or 5 × 10ⁿ); the last ≥ max. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let t = 0; ticks.length === 0 || ticks[ticks.length - 1]! < max; t += step)
    ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(Math.abs(x) < 10 ? 1 : 0));

/** One panel as an SVG element: axes, ticks, the warm-up shaded, a polyline per series and its legend. */
export function renderPanel(panel: ChartPanel, minutes: number, warmupMinutes: number): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const yMax = Math.max(0, ...panel.series.flatMap((s) => s.points.map((p) => p.y)));
  const yTicks = niceTicks(yMax);
  const yTop = yTicks[yTicks.length - 1]!;
  const xTop = minutes > 0 ? minutes : 1;
  const xTicks = niceTicks(xTop, Math.min(10, Math.max(1, Math.ceil(xTop))));
  const sx = (x: number) => MARGIN.left + (x / xTop) * plotW;
  const sy = (y: number) => MARGIN.top + plotH - (y / yTop) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<text x="${MARGIN.left}" y="20" font-size="15" font-weight="bold">${escape(panel.title)}</text>`,
  ];
  if (warmupMinutes > 0)
    parts.push(
      `<rect x="${sx(0)}" y="${MARGIN.top}" width="${sx(warmupMinutes) - sx(0)}" height="${plotH}" fill="#eeeeee"/>`,
      `<text x="${sx(0) + 4}" y="${MARGIN.top + 14}" fill="#777">warm-up</text>`,
    );
  for (const t of yTicks)
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${sy(t)}" y2="${sy(t)}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${sy(t) + 4}" text-anchor="end">${fmt(t)}</text>`,
    );
  for (const t of xTicks.filter((x) => x <= xTop))
    parts.push(
      `<line x1="${sx(t)}" x2="${sx(t)}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH + 4}" stroke="#333"/>`,
      `<text x="${sx(t)}" y="${MARGIN.top + plotH + 17}" text-anchor="middle">${fmt(t)}</text>`,
    );
  parts.push(
    `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" stroke="#333"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#333"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 6}" text-anchor="middle">minutes</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(panel.unit)}</text>`,
  );
  panel.series.forEach((series, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const dash = series.dashed ? ' stroke-dasharray="6 4"' : '';
    const points = series.points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    parts.push(
      `<polyline data-series="${escape(series.name)}" fill="none" stroke="${colour}" stroke-width="1.6"${dash} points="${points}"/>`,
    );
    const ly = MARGIN.top + 10 + i * 18;
    const lx = MARGIN.left + plotW + 14;
    parts.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash}/>`,
      `<text x="${lx + 28}" y="${ly + 4}">${escape(series.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** The whole chart as one self-contained HTML page (inline SVG, no script, nothing fetched). */
export function renderSoakChart(chart: SoakChart): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escape(chart.title)}</title>`,
    '<style>body{font-family:sans-serif;margin:24px;color:#222}p{margin:2px 0}svg{display:block;margin-top:18px}</style>',
    '</head><body>',
    `<h1>${escape(chart.title)}</h1>`,
    ...chart.notes.map((n) => `<p>${escape(n)}</p>`),
    ...chart.panels.map((p) => renderPanel(p, chart.minutes, chart.warmupMinutes)),
    '</body></html>',
    '',
  ].join('\n');
}
