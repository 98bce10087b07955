/**
 * pnpm bench [-- <name> ...]: runs the named benchmarks (all by default) and prints one Markdown
 * report on stdout (progress on stderr). Each benchmark is a module bench/<name>.ts exporting
 * `run(settings): Promise<Row[]>`; add a line to BENCHES for a new one.
 *
 * Knobs: BENCH_RUNS (start-up repetitions, 3), BENCH_SECONDS (per throughput case, 10),
 * BENCH_CLIENTS (16), BENCH_DATABASE_URL (a maintenance URL on this machine's Postgres).
 * Every temp dir, database and server a benchmark creates is removed at the end, also on failure
 * and on Ctrl-C — except the large archive data set (esm_bench_big, bench/generate.ts), kept on
 * purpose for the next run. Flags after the names (--regenerate) are read by the modules.
 */
import { loadAverage, machineLines } from './lib/machine.ts';
import { runCleanup } from './lib/cleanup.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

interface BenchModule {
  run(settings: BenchSettings): Promise<Row[]>;
}

const BENCHES: Record<string, { title: string; load: () => Promise<BenchModule> }> = {
  'cold-start': {
    title: 'Start-up: spawn to first 200 from /esm-server/health',
    load: () => import('./cold-start.ts'),
  },
  'login-menu': { title: 'Login and menu throughput', load: () => import('./login-menu.ts') },
  'archive-data': { title: 'Archives: the large data set', load: () => import('./generate.ts') },
  'archive-lists': { title: 'Archives: archive and log pages vs raw SQL', load: () => import('./archive-lists.ts') },
  'archive-export': {
    title: 'Archives: the 100k-row Excel export, time and server memory',
    load: () => import('./archive-export.ts'),
  },
  'archive-stamp': {
    title: 'Archives: stamping the watermark on a 20-page PDF and a 4000×3000 PNG',
    load: () => import('./archive-stamp.ts'),
  },
  'notice-lists': {
    title: 'Change notices: notice list, recipients matrix and inbox on 10k notices × 2k suppliers vs raw SQL',
    load: () => import('./notice-lists.ts'),
  },
  'bom-import': {
    title: 'BOM: importing a 20,000-line .xlsx, time and server memory',
    load: () => import('./bom-import.ts'),
  },
  'domain-lists': {
    title: 'Newer domains: grants in force, authorisation applications and drawing questions vs raw SQL',
    load: () => import('./domain-lists.ts'),
  },
  'paired-calls': {
    title: 'Two ways of running the api on one database: CPU per call of cheap lists, in alternating bursts',
    load: () => import('./paired-calls.ts'),
  },
  'mixed-workload': {
    title: "Capacity: a day's mix of supplier and staff sessions at rising arrival rates, one and two api processes",
    load: () => import('./mixed-workload.ts'),
  },
  downloads: {
    title: 'Downloads: 16 concurrent downloads of a 40 MB drawing (streamed DWG, stamped PDF), server memory and time',
    load: () => import('./downloads.ts'),
  },
  'audit-chain': {
    title: 'Audit chain: insert cost, 50 concurrent downloads and the backfill of 200k rows, chain on vs off',
    load: () => import('./audit-chain.ts'),
  },
  'notice-mail': {
    title:
      'Notifications: publishing a notice to 2,000 suppliers with mail on — commit, last mail accepted by a local SMTP server, api CPU',
    load: () => import('./notice-mail.ts'),
  },
  'web-login': {
    title: 'Login page and first page in Chromium: time to a usable form, login → table, JS on the wire',
    load: () => import('./web-login.ts'),
  },
  'web-reload': {
    title:
      'A landing page opened again directly in Chromium (HTTP cache emptied): reload → table rows, per added latency',
    load: () => import('./web-reload.ts'),
  },
  lighthouse: {
    title: 'Landing pages in Lighthouse 12 (desktop): score, LCP, TBT, CLS, JS on the wire; median of 5',
    load: () => import('./lighthouse.ts'),
  },
};

function int(v: string | undefined, dflt: number): number {
  const n = Number(v);
  return v && Number.isFinite(n) && n > 0 ? n : dflt;
}

function table(rows: Row[]): string {
  if (rows.length === 0) return '(no rows)';
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const numeric = (c: string) =>
    rows.every((r) => r[c] === undefined || typeof r[c] === 'number' || /^[\d.—-]+$/.test(String(r[c])));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(cols),
    line(cols.map((c) => (numeric(c) ? '---:' : '---'))),
    ...rows.map((r) => line(cols.map((c) => String(r[c] ?? '')))),
  ].join('\n');
}

async function main() {
  // flags (e.g. --regenerate, read by bench/generate.ts) are for the modules, not benchmark names
  const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !(n in BENCHES));
  if (unknown.length) {
    console.error(`unknown benchmark: ${unknown.join(', ')} (known: ${Object.keys(BENCHES).join(', ')})`);
    process.exit(2);
  }
  const selected = names.length ? names : Object.keys(BENCHES);
  const settings: BenchSettings = {
    runs: int(process.env.BENCH_RUNS, 3),
    seconds: int(process.env.BENCH_SECONDS, 10),
    clients: int(process.env.BENCH_CLIENTS, 16),
  };

  const t0 = performance.now();
  const out: string[] = [
    `## pnpm bench — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    ...(await machineLines()),
    '',
  ];
  for (const name of selected) {
    const b = BENCHES[name]!;
    progress(`${name}: ${b.title}`);
    const started = performance.now();
    const rows = await (await b.load()).run(settings);
    await runCleanup();
    out.push(
      `### ${name} — ${b.title}`,
      '',
      table(rows),
      '',
      `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
      '',
    );
  }
  out.push(
    `Settings: BENCH_RUNS=${settings.runs} BENCH_SECONDS=${settings.seconds} BENCH_CLIENTS=${settings.clients}; total ${((performance.now() - t0) / 1000).toFixed(0)} s; load average at the end ${loadAverage()}.`,
  );
  console.log(out.join('\n'));
}

let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (interrupted) return;
    interrupted = true;
    progress(`${sig}: cleaning up`);
    void runCleanup().finally(() => process.exit(130));
  });
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await runCleanup();
}
