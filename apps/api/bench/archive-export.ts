/**
 * The Excel export (searchDrawingFileInformations/drawingExportExcel) of ~100,000 archive rows
 * from the large data set: its time, and the server's memory while it runs — resident set before
 * (baseline, after a warm-up export) and at its peak (VmHWM, reset just before the export), with
 * what the process itself reports at its peaks (V8 heap, external, ArrayBuffers; preloaded
 * lib/memory-probe.mjs) and the resident WebAssembly memory (Prisma's query compiler).
 *
 * Compared with the same rows written as CSV to a file by a process started the same way
 * (lib/csv-export-child.ts: same query, same keyset batches, same columns).
 *
 * The server runs as apps/api's `start` script runs it (lib/run-style.ts), so the figures are
 * those of `pnpm start`; BENCH_EXPORT_FLAGS='--flag=1 NAME=v; --flag=3' measures other ways as
 * well (`;` between them; NAME=value words are environment; `none`: plain node).
 * Each case runs BENCH_RUNS times on one server (after a small warm-up export); the first way of
 * running also once more with a client reading only 2 MB/s, where backpressure must hold the
 * server's reads back rather than let the workbook pile up in memory.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { Pool } from 'undici';
import { ensureBigData, type BigData } from './generate.ts';
import { API, apiPost, login } from './lib/api-client.ts';
import { onCleanup } from './lib/cleanup.ts';
import { processCpuMs } from './lib/cpu.ts';
import { peakRssMb, probeOptions, readProbe, resetPeak, rssMb, rssSplit, sampleMemory } from './lib/memory.ts';
import { describeStyle, runStyle, serverStyle, type RunStyle } from './lib/run-style.ts';
import { apiDir, startServer, tempDir } from './lib/server.ts';
import { fmt } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const SETTLE_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An effective-date range holding ~100,000 files (the middle tenth of the archive), and its exact count. */
async function exportFilter(big: BigData): Promise<{ dateFrom: string; dateTo: string; rows: number }> {
  const c = new pg.Client({ connectionString: big.url });
  await c.connect();
  try {
    const { rows } = await c.query(
      `SELECT to_char(p[1], 'YYYY-MM-DD') AS "from", to_char(p[2], 'YYYY-MM-DD') AS "to"
       FROM (SELECT percentile_disc(ARRAY[0.45, 0.55]) WITHIN GROUP (ORDER BY effective_date) AS p FROM standard_file) x`,
    );
    const { from, to } = rows[0] as { from: string; to: string };
    const n = Number(
      (await c.query(`SELECT count(*) AS n FROM standard_file WHERE effective_date BETWEEN $1 AND $2`, [from, to]))
        .rows[0].n,
    );
    return { dateFrom: from, dateTo: to, rows: n };
  } finally {
    await c.end();
  }
}

interface Measured {
  rows: number;
  bytes: number;
  seconds: number;
  /** CPU (user + system, all its threads: zlib's too) of the exporting process during the export. */
  cpuSeconds: number;
  /** The first byte of the response body, ms after the request (the api only). */
  firstByteMs?: number;
  baseline: number;
  peak: number;
  heapUsed?: number;
  heapTotal?: number;
  external?: number;
  arrayBuffers?: number;
  wasm: number;
  after: number;
}

function row(what: string, style: RunStyle, run: number, m: Measured): Row {
  const mb = (n: number | undefined) => (n === undefined ? '—' : fmt(n));
  return {
    export: what,
    'run with': describeStyle(style),
    run,
    rows: m.rows,
    'file MB': fmt(m.bytes / 1e6, 1),
    seconds: fmt(m.seconds, 2),
    'CPU s': fmt(m.cpuSeconds, 2),
    'first byte ms': m.firstByteMs === undefined ? '—' : fmt(m.firstByteMs),
    'rows/s': fmt(m.rows / m.seconds),
    'RSS before MB': mb(m.baseline),
    'peak RSS MB': mb(m.peak),
    'peak heap used / total MB': m.heapUsed === undefined ? '—' : `${fmt(m.heapUsed)} / ${fmt(m.heapTotal!)}`,
    'peak external (ArrayBuffers) MB': m.external === undefined ? '—' : `${fmt(m.external)} (${fmt(m.arrayBuffers!)})`,
    'wasm MB': fmt(m.wasm, 1),
    'RSS after MB': mb(m.after),
  };
}

/** A client on a slow line: the server must hold back its reads instead of buffering the file. */
const SLOW_CLIENT_BYTES_PER_S = 2_000_000;

/**
 * Posts the export and reads the whole .xlsx (checked: a zip, X-Total-Rows as expected), at most
 * `rate` bytes/s if given. Returns its size and when its first body byte arrived (ms after the post).
 */
async function downloadXlsx(
  http: Pool,
  cookie: string,
  body: object,
  expectRows: number,
  rate?: number,
): Promise<{ bytes: number; firstByteMs: number }> {
  const t0 = performance.now();
  const res = await http.request({
    method: 'POST',
    path: `${API}/searchDrawingFileInformations/drawingExportExcel`,
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
  if (res.statusCode !== 200) throw new Error(`export: ${res.statusCode} ${await res.body.text()}`);
  if (Number(res.headers['x-total-rows']) !== expectRows)
    throw new Error(`export: X-Total-Rows ${res.headers['x-total-rows']}, expected ${expectRows}`);
  let bytes = 0;
  let head: Buffer | undefined;
  let firstByteMs = NaN;
  for await (const chunk of res.body) {
    if (!head) firstByteMs = performance.now() - t0;
    head ??= chunk as Buffer;
    bytes += (chunk as Buffer).length;
    if (rate) {
      const ahead = (bytes / rate) * 1000 - (performance.now() - t0);
      if (ahead > 0) await sleep(ahead);
    }
  }
  if (head?.subarray(0, 2).toString() !== 'PK') throw new Error('export: not a zip (.xlsx)');
  return { bytes, firstByteMs };
}

async function exportThroughApi(
  big: BigData,
  filter: { dateFrom: string; dateTo: string; rows: number },
  style: RunStyle,
  runs: number,
  slowClient: boolean,
): Promise<Row[]> {
  const dir = tempDir('export');
  const probeFile = path.join(dir.dir, 'probe.json');
  const probe = probeOptions(probeFile);
  const server = await startServer({
    dataDir: big.dataDir,
    databaseUrl: big.url,
    nodeArgs: style.flags,
    env: { ...style.env, ...probe },
  });
  const pid = server.proc.pid!;
  const http = new Pool(server.base, { connections: 2 });
  const out: Row[] = [];
  try {
    const cookie = await login(http, 'demo3');
    // warm-up: a list page and a small export, so the baseline is a server that has exported before
    await apiPost(http, 'haier/standardFile/getStandardFilePager', { page: 1, results: 10 }, cookie);
    const small = await apiPost<unknown>(
      http,
      'haier/standardFile/getStandardFilePager',
      { page: 1, results: 10, materialCode: '0001000001' },
      cookie,
    );
    await downloadXlsx(http, cookie, { materialCode: '0001000001' }, small.json.total!);
    const total = runs + (slowClient ? 1 : 0);
    for (let run = 1; run <= total; run++) {
      const rate = run > runs ? SLOW_CLIENT_BYTES_PER_S : undefined;
      await sleep(SETTLE_MS);
      const baseline = rssMb(pid);
      progress(
        `export ${filter.rows} rows through the api (${describeStyle(style)}${rate ? `, client reading ${rate / 1e6} MB/s` : ''}), run ${run}/${total}: RSS before ${baseline.toFixed(0)} MB, split ${JSON.stringify(rssSplit(pid), (_, v) => (typeof v === 'number' ? Math.round(v) : v))}`,
      );
      await readProbe(pid, probeFile); // starts the probe's peaks afresh
      resetPeak(pid);
      const sampler = sampleMemory(pid);
      const cpu0 = processCpuMs(pid);
      const t0 = performance.now();
      const { bytes, firstByteMs } = await downloadXlsx(
        http,
        cookie,
        { dateFrom: filter.dateFrom, dateTo: filter.dateTo },
        filter.rows,
        rate,
      );
      const seconds = (performance.now() - t0) / 1000;
      const cpuSeconds = (processCpuMs(pid) - cpu0) / 1000;
      const sampled = sampler.stop();
      const peak = Math.max(peakRssMb(pid), sampled.peakRss);
      const { peak: p, afterGc } = await readProbe(pid, probeFile);
      if (afterGc)
        progress(
          `  after a forced full GC: heap used ${afterGc.heapUsed.toFixed(0)} MB, external ${afterGc.external.toFixed(0)} MB, RSS ${afterGc.rss.toFixed(0)} MB`,
        );
      await sleep(SETTLE_MS);
      const m: Measured = {
        rows: filter.rows,
        bytes,
        seconds,
        cpuSeconds,
        firstByteMs,
        baseline,
        peak,
        heapUsed: p.heapUsed,
        heapTotal: p.heapTotal,
        external: p.external,
        arrayBuffers: p.arrayBuffers,
        wasm: sampled.peakWasm,
        after: rssMb(pid),
      };
      progress(
        `  ${seconds.toFixed(1)} s (first byte ${firstByteMs.toFixed(0)} ms), peak RSS ${peak.toFixed(0)} MB (at the peak: ${JSON.stringify(sampled.atPeak, (_, v) => (typeof v === 'number' ? Math.round(v) : v))}), heap ${p.heapUsed.toFixed(0)}/${p.heapTotal.toFixed(0)} MB, external ${p.external.toFixed(0)} MB`,
      );
      out.push(
        row(rate ? `xlsx through the api, client reading ${rate / 1e6} MB/s` : 'xlsx through the api', style, run, m),
      );
    }
  } finally {
    await http.close();
    await server.stop();
    await dir.remove();
  }
  return out;
}

/** One CSV run in a fresh child process (lib/csv-export-child.ts). */
async function exportCsv(
  big: BigData,
  filter: { dateFrom: string; dateTo: string; rows: number },
  style: RunStyle,
  run: number,
): Promise<Row> {
  const dir = tempDir('csv');
  const probeFile = path.join(dir.dir, 'probe.json');
  const probe = probeOptions(probeFile);
  const env = {
    ...process.env,
    ...style.env,
    ...probe,
    DATABASE_URL: big.url,
    EXPORT_FILTER: JSON.stringify({ dateFrom: filter.dateFrom, dateTo: filter.dateTo }),
    CSV_OUT: path.join(dir.dir, 'rows.csv'),
  };
  const child = spawn(process.execPath, [...style.flags, '--import', 'tsx', 'bench/lib/csv-export-child.ts'], {
    cwd: apiDir,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const kill = onCleanup(`kill csv child ${child.pid}`, () => void child.kill('SIGKILL'));
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const next = async () => {
      const l = await lines.next();
      if (l.done) throw new Error(`csv child exited (${child.exitCode})`);
      return l.value;
    };
    if ((await next()) !== 'ready') throw new Error('csv child: expected ready');
    await sleep(SETTLE_MS);
    const pid = child.pid!;
    const baseline = rssMb(pid);
    await readProbe(pid, probeFile);
    resetPeak(pid);
    const sampler = sampleMemory(pid);
    const cpu0 = processCpuMs(pid);
    child.stdin!.write('go\n');
    const done = JSON.parse(await next()) as { rows: number; bytes: number; ms: number };
    const cpuSeconds = (processCpuMs(pid) - cpu0) / 1000;
    const sampled = sampler.stop();
    const peak = Math.max(peakRssMb(pid), sampled.peakRss);
    if (done.rows !== filter.rows) throw new Error(`csv: ${done.rows} rows, expected ${filter.rows}`);
    const { peak: p } = await readProbe(pid, probeFile);
    await sleep(SETTLE_MS);
    const after = rssMb(pid);
    child.stdin!.write('bye\n');
    progress(
      `csv run ${run}: ${(done.ms / 1000).toFixed(1)} s, RSS ${baseline.toFixed(0)} → peak ${peak.toFixed(0)} MB, heap ${p.heapUsed.toFixed(0)}/${p.heapTotal.toFixed(0)} MB`,
    );
    const m: Measured = {
      rows: done.rows,
      bytes: done.bytes,
      seconds: done.ms / 1000,
      cpuSeconds,
      baseline,
      peak,
      heapUsed: p.heapUsed,
      heapTotal: p.heapTotal,
      external: p.external,
      arrayBuffers: p.arrayBuffers,
      wasm: sampled.peakWasm,
      after,
    };
    return row('csv to a file (same query and batches)', style, run, m);
  } finally {
    await kill();
    await dir.remove();
  }
}

export async function run({ runs }: BenchSettings): Promise<Row[]> {
  const big = await ensureBigData();
  const filter = await exportFilter(big);
  progress(`export filter: effective date ${filter.dateFrom} … ${filter.dateTo}, ${filter.rows} files`);
  const extra = (process.env.BENCH_EXPORT_FLAGS ?? '')
    .split(';')
    .map((s) => s.trim().split(/\s+/).filter(Boolean))
    .filter((w) => w.length);
  const rows: Row[] = [];
  for (const [i, style] of [
    serverStyle(),
    ...extra.map((w) => (w.join(' ') === 'none' ? runStyle([]) : runStyle(w))),
  ].entries()) {
    rows.push(...(await exportThroughApi(big, filter, style, runs, i === 0)));
    for (let r = 1; r <= runs; r++) rows.push(await exportCsv(big, filter, style, r));
  }
  return rows;
}
