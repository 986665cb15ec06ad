/**
 * Identifiers: the tokens a summary must never lose or paraphrase. Numbers and
 * figures, issue/PR references, commit hashes, file names and paths, code names
 * (snake_case, kebab-case, camelCase), URLs, e-mail addresses, @mentions and
 * anything in backticks.
 */

const EXTENSIONS = [
  'ts',
  'tsx',
  'js',
  'jsx',
  'mjs',
  'cjs',
  'json',
  'jsonc',
  'md',
  'mdx',
  'txt',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'swift',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cs',
  'php',
  'sh',
  'bash',
  'zsh',
  'ps1',
  'sql',
  'yaml',
  'yml',
  'toml',
  'ini',
  'env',
  'cfg',
  'conf',
  'xml',
  'html',
  'htm',
  'css',
  'scss',
  'less',
  'vue',
  'svelte',
  'proto',
  'lock',
  'log',
  'csv',
  'tsv',
  'parquet',
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'svg',
  'webp',
  'mp3',
  'mp4',
  'wav',
  'zip',
  'tar',
  'gz',
  'tgz',
  'dockerfile',
  'tf',
  'hcl',
  'graphql',
  'gql',
  'ipynb',
  'r',
  'scala',
  'lua',
  'dart',
  'ex',
  'exs',
  'erl',
  'hs',
  'ml',
  'clj',
  'pem',
  'crt',
  'key',
  'wasm',
  'so',
  'dll',
  'exe',
  'bin',
];

const PATTERNS: readonly RegExp[] = [
  /\bhttps?:\/\/[^\s<>"')\]]+/giu, // URLs
  /\bwww\.[a-z0-9-]+\.[a-z]{2,}[^\s<>"')\]]*/giu,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu, // e-mail
  /(?<![\w@])@[\w][\w.-]*/gu, // @mentions, @scope/package
  /`[^`\n]+`/gu, // code spans
  /(?<![\w&])#\d+\b/gu, // #123
  /\b[A-Z][A-Z0-9]+-\d+\b/gu, // ENG-123
  /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/giu, // commit hashes, digests
  /(?:~|\.{1,2})?(?:\/[\w.@-]+){2,}\/?|\b[\w.@-]+(?:\/[\w.@-]+)+/gu, // paths: a/b, /etc/hosts, ./x/y
  new RegExp(`\\b[\\w-]+(?:\\.[\\w-]+)*\\.(?:${EXTENSIONS.join('|')})\\b`, 'giu'), // file names
  /\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/gu, // snake_case, SCREAMING_CASE
  /\b[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}\b/gu, // kebab-case with two hyphens (one is ordinary English)
  /\b[a-z]+[0-9]*-[a-z0-9]*\d[a-z0-9]*\b/gu, // kebab with a digit: gpt-4o, node-20
  /\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/gu, // camelCase
  /\b[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+\b/gu, // PascalCase with an inner capital: TypeScript
  /[$€£¥]\s?\d[\d,.]*(?:\s?[kKmMbB]n?)?|\b\d[\d,.]*\s?(?:%|[kKmMgGtT]?[bB]|ms|s|h|min|[kK]|[mM]|px|€)(?![\w])|\bv?\d+(?:\.\d+){1,3}\b/gu, // figures, versions
  /\b\d+(?:[.,:]\d+)*\b/gu, // any other number
];

/** The distinct identifiers in a text, in order of first appearance. */
export function findIdentifiers(text: string): string[] {
  const found: { at: number; value: string }[] = [];
  for (const pattern of PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const value = match[0].replace(/[.,;:!?]+$/u, '');
      if (value.length > 0) found.push({ at: match.index ?? 0, value });
    }
  }
  found.sort((a, b) => a.at - b.at || b.value.length - a.value.length);
  const seen = new Set<string>();
  const result: string[] = [];
  for (const { value } of found) {
    if (seen.has(value)) continue;
    // A number inside an identifier already found ("123" in "#123") adds nothing.
    if (result.some((kept) => kept.includes(value))) continue;
    seen.add(value);
    result.push(value);
  }
  return result;
}

/** Whether a text holds at least one identifier. */
export function hasIdentifier(text: string): boolean {
  return findIdentifiers(text).length > 0;
}
