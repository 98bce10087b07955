/**
 * config.ts (with paths.ts, its early part) is the only reader of the environment's settings:
 * every variable is parsed, defaulted and documented in one place (docs/operators.md). An entry
 * point may hand `process.env` over whole (server.ts, the CLIs, a child process's environment),
 * but no other file reads a variable of its own.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/config.ts';

const READERS = new Set(['apps/api/src/config.ts', 'apps/api/src/paths.ts']);

describe('environment readers', () => {
  it('only config.ts and paths.ts read a variable of process.env', () => {
    const files = execFileSync('git', ['ls-files', 'apps/api/src'], { cwd: paths.root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !f.startsWith('apps/api/src/generated/') && !READERS.has(f));
    expect(files.length).toBeGreaterThan(50);
    const readers = files.flatMap((f) =>
      readFileSync(`${paths.root}/${f}`, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /process\.env\s*(\.|\[|\?\.)|\{[^}]*\}\s*=\s*process\.env/.test(line)
            ? [`${f}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(readers).toEqual([]);
  });
});
