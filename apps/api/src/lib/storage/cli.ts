/**
 * pnpm storage:migrate [folder]
 *   Copies the local file store (the folder given, else STORAGE_DIR / DATA_DIR/files) into the
 *   bucket the S3_* variables name; see lib/storage/migrate.ts. Exits non-zero naming each file
 *   that could not be copied and checked.
 */
import { loadConfig } from '../../config.ts';
import { givenPathOf } from '../../paths.ts';
import { migrateToBucket } from './migrate.ts';

const [cmd, arg] = process.argv.slice(2);

async function main() {
  if (cmd !== 'migrate') throw new Error(`unknown command "${cmd ?? ''}" (migrate [folder])`);
  const config = loadConfig();
  if (!config.s3)
    throw new Error(
      'S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY for a store other than AWS) must name the bucket to copy into',
    );
  const dir = arg ? givenPathOf(process.env, arg) : config.storageDir;
  console.log(
    `copying the file store ${dir} into S3 bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}`,
  );
  const report = await migrateToBucket(dir, config.s3, (line) => console.log(line));
  console.log(`copied ${report.copied}, already there ${report.skipped}, failed ${report.failed.length}`);
  if (report.failed.length) {
    for (const f of report.failed) console.error(`not copied: ${f.file}: ${f.reason}`);
    throw new Error(
      `${report.failed.length} file(s) not copied: run the command again once the cause is fixed (what is there already is skipped)`,
    );
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
