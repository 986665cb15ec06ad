import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileEntry {
  readonly name: string;
  readonly selfMs: number;
  readonly share: number;
}

export interface ProfileSummary {
  readonly file: string;
  readonly totalMs: number;
  /** Self time by where the code lives: a package, a workspace lib, node internals, GC, idle. */
  readonly byOrigin: readonly ProfileEntry[];
  readonly topFunctions: readonly ProfileEntry[];
}

/** Self time of a V8 .cpuprofile, by origin and by function (what `--cpu-prof` writes). */
export function summarizeCpuProfile(file: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = nodes.get(id)?.callFrame;
    if (!frame) return;
    totalMs += ms;
    const where = originOf(frame.url, frame.functionName);
    const fn = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    byOrigin.set(where, (byOrigin.get(where) ?? 0) + ms);
  });
  const rank = (m: Map<string, number>, n: number): ProfileEntry[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, selfMs]) => ({ name, selfMs: Math.round(selfMs), share: totalMs ? selfMs / totalMs : 0 }));
  return {
    file,
    totalMs: Math.round(totalMs),
    byOrigin: rank(byOrigin, 15),
    topFunctions: rank(byFunction, top),
  };
}

function originOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ws = /\/(libs|services|tools)\/([^/]+)\//.exec(url);
  if (ws) return `${ws[1]}/${ws[2]}`;
  return shortUrl(url);
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\//, '')
    .replace(/^.*\/(libs|services|tools)\//, '$1/');
}
