import { Variables } from './variables';

/** The README's configuration table, generated so that it cannot drift from the code. */
export function renderConfigTable(): string {
  const rows = Object.entries(Variables).map(
    ([name, v]) =>
      `| \`${name}\` | ${v.defaultText.includes('(') ? v.defaultText : `\`${v.defaultText}\``} | ${v.usedBy} | ${v.description} |`,
  );
  return ['| Variable | Default | Read by | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
