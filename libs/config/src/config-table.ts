import { servicesReading, ServiceVariables } from './service-variables';
import { Variables, type VariableName } from './variables';

/**
 * The configuration table of docs/reference/configuration.md, generated so that it cannot drift
 * from the code.
 */
export function renderConfigTable(): string {
  const rows = Object.entries(Variables).map(
    ([name, v]) =>
      `| \`${name}\` | ${v.defaultText.includes('(') ? v.defaultText : `\`${v.defaultText}\``} | ${readersOf(name as VariableName)} | ${v.description} |`,
  );
  return ['| Variable | Default | Read by | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The table's "Read by": the services whose lists load it ("all services" when every one does), then its other readers. */
export function readersOf(name: VariableName): string {
  const services = servicesReading(name);
  const named = services.length === Object.keys(ServiceVariables).length ? ['all services'] : services;
  const other = Variables[name].alsoReadBy;
  return [...named, ...(other === undefined ? [] : [other])].join(', ');
}
