/** A row of a report table: label, headline figure, details. An all-empty row is a blank line. */
export type ReportRow = readonly [string, string, string];

/** The rows as three aligned columns (the last one unpadded). */
export function renderColumns(rows: readonly ReportRow[]): string {
  const w0 = Math.max(...rows.map((x) => x[0].length));
  const w1 = Math.max(...rows.map((x) => x[1].length));
  return rows
    .map(([a, b, d]) => (a || b ? `${a.padEnd(w0)}  ${b.padEnd(w1)}  ${d}`.trimEnd() : ''))
    .join('\n');
}
