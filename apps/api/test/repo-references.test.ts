/**
 * The repository stands on its own: no comment, doc or test refers to a tracker's item numbers or
 * to sections and files of documents a clone does not have. A comment says the reason itself.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/config.ts';

// written in pieces so this file does not match itself
const FORBIDDEN: [string, RegExp][] = [
  ['an issue number', new RegExp(String.raw`\bissues?\s+#?\d`, 'i')],
  ['a section of an outside document', new RegExp('\u00a7')],
  ['a file outside the repository', new RegExp(String.raw`\.\./` + 'shared\\b')],
];
const TEXT = /\.(ts|tsx|mts|js|mjs|cjs|css|html|md|prisma|sql|ya?ml|toml)$|^\.npmrc$|(^|\/)Dockerfile$/;
const SKIPPED = new Set(['pnpm-lock.yaml']);
// an applied migration is never edited: its checksum is compared on every start (db/migrations.ts)
const APPLIED_MIGRATION = /^prisma\/migrations\/[^/]+\/migration\.sql$/;

describe('references outside the repository', () => {
  it('no tracked file cites an issue number, a section sign or the shared folder beside the clone', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: paths.root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => TEXT.test(f) && !SKIPPED.has(f) && !APPLIED_MIGRATION.test(f));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((f) =>
      readFileSync(`${paths.root}/${f}`, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          FORBIDDEN.filter(([, re]) => re.test(line)).map(
            ([what]) => `${f}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`,
          ),
        ),
    );
    expect(found).toEqual([]);
  });
});
