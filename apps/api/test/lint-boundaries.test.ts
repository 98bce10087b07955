/**
 * The import boundaries in eslint.config.js hold: each case lints a throwaway snippet, placed at a
 * real path of the tree (the file need not exist; its imports resolve against the files that do),
 * with the repository's own config, and expects the rule to fire. A legitimate import at the same
 * places shows the rules do not simply fire on everything. Only the snippets are linted, so this
 * stays a few seconds; `pnpm lint` checks the tree itself.
 */
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/config.ts';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: paths.root });
});

/** The rule ids of the problems ESLint reports for `code` as if it were the file at `file` (relative to the root). */
async function problems(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(paths.root, file) });
  if (!result) throw new Error(`no lint result for ${file}`);
  return result.messages;
}

const rulesOf = (messages: Linter.LintMessage[]) => messages.map((m) => m.ruleId);

describe('lint boundaries', { timeout: 120_000 }, () => {
  it('a shared component importing a feature is refused', async () => {
    const messages = await problems(
      'apps/web/src/components/LintProbe.tsx',
      "export { NoticeSummary } from '../features/notices/index.ts';\n",
    );
    expect(rulesOf(messages)).toContain('import-x/no-restricted-paths');
    expect(messages.find((m) => m.ruleId === 'import-x/no-restricted-paths')?.message).toMatch(
      /components\/ and lib\/ are shared by every page/,
    );
  });

  it('a feature importing another feature through its index.ts passes, its internal file does not', async () => {
    expect(
      rulesOf(
        await problems(
          'apps/web/src/features/archives/LintProbe.tsx',
          "export { NoticeSummary } from '../notices/index.ts';\n",
        ),
      ),
    ).not.toContain('import-x/no-restricted-paths');
    expect(
      rulesOf(
        await problems(
          'apps/web/src/features/archives/LintProbe.tsx',
          "export { NoticeSummary } from '../notices/NoticeSummary.tsx';\n",
        ),
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it('an import cycle is refused (api and web)', async () => {
    // lib/list.ts imports lib/envelope.ts: envelope.ts importing list.ts closes a cycle
    expect(
      rulesOf(await problems('apps/api/src/lib/envelope.ts', "export { cappedCount } from './list.ts';\n")),
    ).toContain('import-x/no-cycle');
    // components/ListPage.tsx imports PagedTable.tsx
    expect(
      rulesOf(await problems('apps/web/src/components/PagedTable.tsx', "export { ListPage } from './ListPage.tsx';\n")),
    ).toContain('import-x/no-cycle');
  });

  it("a deep import into another api module's internal file is refused, its index.ts is not", async () => {
    const deep = await problems(
      'apps/api/src/modules/bom/lint-probe.ts',
      "export { materialAccess } from '../empower/grants.ts';\n",
    );
    expect(rulesOf(deep)).toContain('import-x/no-restricted-paths');
    expect(deep.find((m) => m.ruleId === 'import-x/no-restricted-paths')?.message).toMatch(
      /only through its index\.ts/,
    );
    expect(
      rulesOf(
        await problems(
          'apps/api/src/modules/bom/lint-probe.ts',
          "export { materialAccess } from '../empower/index.ts';\n",
        ),
      ),
    ).toEqual([]);
  });

  it('infrastructure (lib/) importing a module is refused', async () => {
    expect(
      rulesOf(
        await problems(
          'apps/api/src/lib/lint-probe.ts',
          "export { materialAccess } from '../modules/empower/index.ts';\n",
        ),
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it('the web importing @esm/api is refused, in a page, a component and the shell alike', async () => {
    for (const file of [
      'apps/web/src/features/notices/pages/LintProbe.tsx',
      'apps/web/src/components/LintProbe.tsx',
      'apps/web/src/app/LintProbe.tsx',
      'apps/web/src/lib/lint-probe.ts',
    ]) {
      const messages = await problems(file, "export { buildApp } from '@esm/api';\n");
      expect(rulesOf(messages), file).toContain('no-restricted-imports');
    }
  });

  it('contracts importing the api is refused', async () => {
    expect(
      rulesOf(await problems('packages/contracts/src/lint-probe.ts', "export { buildApp } from '@esm/api';\n")),
    ).toContain('no-restricted-imports');
  });
});
