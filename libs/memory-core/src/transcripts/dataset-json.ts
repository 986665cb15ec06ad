import { readFile } from 'node:fs/promises';
import type { z } from 'zod';

/** "[2].conversation.session_3[4].dia_id" */
function issuePath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/** The first five problems of a dataset that failed validation, a line each, where and what. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 5).map((i) => `  ${issuePath(i.path) || '(top level)'}: ${i.message}`);
  if (issues.length > shown.length) shown.push(`  … and ${issues.length - shown.length} more`);
  return shown.join('\n');
}

/** Reads a JSON dataset (any path); a file that cannot be read or is not JSON fails with `fail`'s error. */
export async function readDatasetJson(file: string, fail: (message: string) => Error): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw fail(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
