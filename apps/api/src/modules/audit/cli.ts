/**
 * pnpm audit:verify [--heads FILE] | --package FILE.zip
 *   Recomputes the chain of every table that records acts (chain.ts) on DATABASE_URL (or the
 *   embedded database, while the portal is stopped) and exits non-zero naming each row changed,
 *   deleted or inserted outside the chain. `--heads FILE`: the day heads exported from 审计校验
 *   (JSON) and kept elsewhere; each must still be in the chain, which exposes a chain rewritten
 *   as a whole by someone with write access to the database. Each run is recorded (the page shows
 *   the last), and holds the chains to the heads of the last run that passed.
 * `--package FILE.zip`: checks an evidence package (证据包) offline, against its own hashes and
 *   the chain heads it names (package-verify.ts); no database is opened and nothing recorded.
 *
 * In a checkout the script runs this file with tsx; the image runs its bundle, dist/audit-cli.mjs
 * (scripts/build.mjs), with plain node.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { givenPathOf } from '../../paths.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { lockDataDir } from '../../data-dir-lock.ts';
import type { KnownHead } from './chain.ts';
import { parseHeadsFile } from './heads.ts';
import { verifyAndRecord } from './verifications.ts';
import { verifyPackage } from './package-verify.ts';

const args = process.argv.slice(2);

async function main() {
  const [cmd, ...rest] = args;
  if (cmd !== 'verify')
    throw new Error(`unknown command "${cmd ?? ''}" (verify [--heads FILE] | verify --package FILE.zip)`);
  const pkgAt = rest.indexOf('--package');
  if (pkgAt >= 0) {
    const file = rest[pkgAt + 1];
    if (!file) throw new Error('--package needs the evidence package (ZIP) exported from the portal');
    return verifyPackageFile(file);
  }
  let known: KnownHead[] = [];
  const at = rest.indexOf('--heads');
  if (at >= 0) {
    const file = rest[at + 1];
    if (!file) throw new Error('--heads needs the file exported from 审计校验 (JSON)');
    known = parseHeadsFile(await readFile(givenPathOf(process.env, file), 'utf8'), path.basename(file));
  }
  const config = loadConfig(process.env, { sessionSecret: '' });
  if (!config.databaseUrl) await lockDataDir(config.dataDir, 'pnpm audit:verify');
  const db = await openDatabase(config);
  try {
    const { report } = await verifyAndRecord(
      db.prisma,
      { source: 'CLI', userId: null, userName: 'pnpm audit:verify' },
      known,
    );
    for (const h of report.heads) console.log(`${h.table}: ${h.seq} rows, head ${h.hash}`);
    if (!report.ok) {
      for (const p of report.problems) console.error(`problem: ${p.message}`);
      throw new Error(
        `audit chain broken: ${report.problems.length} problem(s) above; the first: ${report.problems[0]!.message}`,
      );
    }
    console.log(
      `audit chain verified: ${report.rows} rows in ${report.heads.length} chains${known.length ? `, ${known.length} recorded heads held` : ''}`,
    );
  } finally {
    await db.close();
  }
}

async function verifyPackageFile(file: string) {
  const report = await verifyPackage(await readFile(givenPathOf(process.env, file)));
  const m = report.manifest;
  if (m) {
    console.log(
      `package: ${m.subject.title}${m.subject.supplierCode ? ` / supplier ${m.subject.supplierCode}` : ''}, made ${m.generatedAt} by ${m.generatedBy.account}`,
    );
    console.log(`made against chain heads (digest ${m.headsDigest}):`);
    for (const h of m.heads) console.log(`  ${h.table}: ${h.seq} rows, head ${h.hash}`);
  }
  if (!report.ok) {
    for (const p of report.problems) console.error(`problem: ${p}`);
    throw new Error(
      `evidence package does not verify: ${report.problems.length} problem(s) above; the first: ${report.problems[0]!}`,
    );
  }
  console.log(
    `evidence package verified: ${report.rows} chained rows, ${m!.entries.length} entries, manifest ${m!.manifestSha256}`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
