/**
 * How a benchmark starts a server process: the node flags and environment variables (e.g. glibc
 * malloc tunables) that apps/api's `start` script puts before and around `node`, so the figures
 * are those of `pnpm start`. BENCH_SERVER_STYLE='NAME=value --flag' replaces them ('none': plain
 * `node dist/server.mjs`), to compare ways of running the same code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_ENTRY, apiDir } from './server.ts';

export interface RunStyle {
  flags: string[];
  env: Record<string, string>;
}

/** `NAME=value` words are environment, the rest node flags. */
export function runStyle(words: string[]): RunStyle {
  const env: Record<string, string> = {};
  const flags: string[] = [];
  for (const w of words) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(w);
    if (m) env[m[1]!] = m[2]!;
    else flags.push(w);
  }
  return { flags, env };
}

export const describeStyle = (s: RunStyle) =>
  [...Object.entries(s.env).map(([k, v]) => `${k}=${v}`), ...s.flags].join(' ') || '(none)';

/** What `pnpm --filter @esm/api start` runs after building: its env assignments and node flags. */
export function startScriptStyle(): RunStyle {
  const start = (JSON.parse(readFileSync(path.join(apiDir, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  // "node scripts/build.mjs && NAME=value node --flag dist/server.mjs": the command after the build
  const words = start.split('&&').at(-1)!.trim().split(/\s+/);
  const node = words.indexOf('node');
  const flags = words.slice(node + 1, words.indexOf(SERVER_ENTRY));
  return runStyle([...words.slice(0, node), ...flags]);
}

/** A style as the knobs write it: empty for the start script's, 'none' for plain `node`, else 'NAME=value --flag'. */
export function styleOf(value: string | undefined): RunStyle {
  const override = value?.trim();
  if (!override) return startScriptStyle();
  return override === 'none' ? { flags: [], env: {} } : runStyle(override.split(/\s+/));
}

/** The start script's style, unless BENCH_SERVER_STYLE says otherwise. */
export const serverStyle = (): RunStyle => styleOf(process.env.BENCH_SERVER_STYLE);
