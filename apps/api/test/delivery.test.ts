/**
 * Delivery records and stopping without cutting anyone off, over real sockets: a download is
 * logged 成功 only when every byte went out; a client that goes away, or a stop past its grace,
 * leaves 不完整 with the bytes sent. A stop (SIGTERM) of a real server process lets every request
 * sent before it finish — list calls on keep-alive connections and a large download — and exits 0.
 * Nothing here waits for time: each step waits for a state (a row, a response, the process's exit).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { API_BASE, logOutcomeText, type LogRow, logsApi, filesApi } from '@esm/contracts';
import { SESSION_SECRET, buildTestApp, login, callApi, testDatabaseUrl } from './helpers.ts';
import { createFileVersion, createMaterial, createProductLine, samplePdf, tempStorage } from './factories.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
/** A second app over the same database: the log pages and sign-ins, also after `t` has closed. */
const admin = await buildTestApp({ storage: files.storage, db: t.db });
const staff = await login(admin.app, 'demo3');
const line = await createProductLine(t.db.prisma);
const material = await createMaterial(t.db.prisma, line.code);

/** A drawing larger than every socket buffer between server and client (so a paused reader holds the response). */
const BIG = 24 << 20;
const bigBytes = Buffer.alloc(BIG);
for (let i = 0; i < BIG; i += 4096) bigBytes.writeUInt32LE(i, i);
const big = await createFileVersion(t.db.prisma, files.storage, {
  materialCode: material.code,
  type: 'dwg',
  bytes: bigBytes,
});

const running: ChildProcess[] = [];
afterAll(async () => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await admin.close();
  await t.close();
  await files.remove();
});

/** Polls `probe` until it answers something (a row written by the server, say). */
async function until<T>(what: string, probe: () => Promise<T | null | undefined>, limitMs = 60_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The download log page's rows (`filters` added), as an admin sees them. */
async function logRows(filters: Record<string, string> = {}): Promise<LogRow[]> {
  const res = await callApi(admin.app, logsApi.DOWNLOAD, { page: 1, results: 100, ...filters }, staff);
  if (res.statusCode !== 200) throw new Error(`log page: ${res.statusCode} ${res.body}`);
  return res.json().data as LogRow[];
}
const downloadRows = () => logRows({ standardCode: big.standardCode });

/** The delivery row of access_log row `id`, once written. */
const deliveryOf = (id: number) =>
  until(`delivery row of ${id}`, () => t.db.prisma.accessDelivery.findUnique({ where: { accessLogId: id } }));

interface Download {
  res: http.IncomingMessage;
  /** Resolves with the bytes received once the response ends or breaks. */
  done: Promise<{ received: number; complete: boolean }>;
}

/** POST file/download over a real socket; the body is left paused until the caller resumes it. */
function download(base: string, cookie: string, id: number, agent?: http.Agent): Promise<Download> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${API_BASE}/${filesApi.download.path}`,
      { method: 'POST', agent: agent ?? false, headers: { cookie, 'content-type': 'application/json' } },
      (res) => {
        res.pause();
        let received = 0;
        const done = new Promise<{ received: number; complete: boolean }>((ok) => {
          res.on('data', (c: Buffer) => (received += c.length));
          res.once('end', () => ok({ received, complete: received === Number(res.headers['content-length']) }));
          res.once('error', () => ok({ received, complete: false }));
          res.once('aborted', () => ok({ received, complete: false }));
          res.once('close', () =>
            ok({ received, complete: res.complete && received === Number(res.headers['content-length']) }),
          );
        });
        resolve({ res, done });
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify({ id }));
  });
}

describe('a download over a real socket (the app listening in this process)', { timeout: 120_000 }, () => {
  let base = '';
  it('listens', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('a client that goes away after the first chunk leaves a 不完整 row with the bytes sent, never 成功', async () => {
    const before = (await downloadRows()).length;
    const d = await download(base, staff, big.id);
    expect(d.res.statusCode).toBe(200);
    expect(Number(d.res.headers['content-length'])).toBe(BIG);
    await new Promise<void>((ok) => {
      d.res.once('data', () => {
        d.res.destroy(); // the client goes away with the first chunk
        ok();
      });
      d.res.resume();
    });
    const row = await until('the download row', async () =>
      (await downloadRows()).length > before ? (await downloadRows())[0] : null,
    );
    const delivery = await deliveryOf(row.id);
    expect(delivery.complete).toBe(false);
    expect(Number(delivery.bytesTotal)).toBe(BIG);
    expect(Number(delivery.bytesSent)).toBeLessThan(BIG);

    // the download log says so, in the words the page and its users read
    const shown = (await downloadRows()).find((r) => r.id === row.id)!;
    expect(shown).toMatchObject({
      outcome: 'PARTIAL',
      delivery: { bytesSent: Number(delivery.bytesSent), bytesTotal: BIG },
    });
    expect(logOutcomeText(shown)).toBe(
      `不完整（已发送 ${Number(delivery.bytesSent).toLocaleString('en-US')} / ${BIG.toLocaleString('en-US')} 字节）`,
    );
    const partial = await logRows({ standardCode: big.standardCode, outcome: 'PARTIAL' });
    expect(partial.map((r) => r.id)).toContain(row.id);
    const ok = await logRows({ standardCode: big.standardCode, outcome: 'OK' });
    expect(ok.map((r) => r.id)).not.toContain(row.id);
  });

  it('N concurrent downloads — stamped PDFs queued for stamping, a streamed DWG — all complete, with N rows 成功', async () => {
    const pdfs = await Promise.all(
      [0, 1, 2].map(async () =>
        createFileVersion(t.db.prisma, files.storage, {
          materialCode: material.code,
          type: 'pdf',
          bytes: await samplePdf(4),
        }),
      ),
    );
    const ids = [...pdfs.map((f) => f.id), ...pdfs.map((f) => f.id), big.id, big.id];
    const results = await Promise.all(
      ids.map(async (id) => {
        const d = await download(base, staff, id);
        d.res.resume();
        return { status: d.res.statusCode, ...(await d.done) };
      }),
    );
    expect(results.every((r) => r.status === 200 && r.complete)).toBe(true);
    // (a client can have its last bytes before the server hears that they left: the rows follow)
    const rows = await until('a complete delivery row for each', async () => {
      const r = await t.db.prisma.accessLog.findMany({
        where: {
          fileId: { in: ids },
          action: 'DOWNLOAD',
          userAccount: 'demo3',
          outcome: 'SENT',
          delivery: { complete: true },
        },
      });
      return r.length >= ids.length ? r : null;
    });
    // the big file's earlier cut-short download is not among them
    expect(rows.length).toBe(ids.length);
    const listed = await until('the log page lists them 成功', async () => {
      const r = await logRows({ outcome: 'OK' });
      const mine = r.filter((x) => rows.some((y) => y.id === x.id));
      return mine.length === ids.length ? mine : null;
    });
    expect(listed.every((r) => r.outcome === 'OK' && logOutcomeText(r) === '成功')).toBe(true);
  });

  it('closes', async () => {
    await t.app.close();
  });
});

// ---- a real server process, stopped with SIGTERM ----------------------------------------------

interface Server {
  proc: ChildProcess;
  base: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startServer(grace: number): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: testDatabaseUrl(),
    STORAGE_DIR: files.dir,
    SESSION_SECRET,
    SEED_DEMO: 'false',
    MIGRATE_ON_START: 'false',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_SECONDS: String(grace),
  };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // the port it listens on, from its own start-up line
  const port = await until(
    'the server listening',
    async () => {
      if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
      return /"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(out)?.[1] ?? null;
    },
    120_000,
  );
  return { proc, base: `http://127.0.0.1:${port}`, output: () => out, exited };
}

/** POSTs over `agent`; answers the status, or the error's code when the request failed, and whether its bytes had left before `signalled()`. */
function listCall(
  base: string,
  agent: http.Agent,
  cookie: string,
  signalled: () => boolean,
): Promise<{ sentBefore: boolean; result: number | string }> {
  return new Promise((resolve) => {
    let sentBefore = false;
    const req = http.request(
      `${base}${API_BASE}/${logsApi.DOWNLOAD.path}`,
      { method: 'POST', agent, headers: { cookie, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.once('end', () => resolve({ sentBefore, result: res.statusCode ?? 0 }));
        res.once('error', (e) => resolve({ sentBefore, result: (e as NodeJS.ErrnoException).code ?? e.message }));
      },
    );
    // every byte of the request handed to this side's socket before the signal was sent
    req.once('finish', () => (sentBefore = !signalled()));
    req.once('error', (e) => resolve({ sentBefore, result: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(JSON.stringify({ page: 1, results: 10 }));
  });
}

describe('SIGTERM on a real server process', { timeout: 240_000 }, () => {
  it('requests sent before the signal all finish, the download in flight completes and is logged 成功, the process exits 0', async () => {
    const s = await startServer(60);
    const cookie = await login(admin.app, 'demo3'); // the session lives in the database the server shares
    let signalled = false;
    const isSignalled = () => signalled;

    // four clients looping on a list call over keep-alive connections, until the server stops answering
    const outcomes: { sentBefore: boolean; result: number | string }[] = [];
    let calls = 0;
    const loops = [0, 1, 2, 3].map(async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (;;) {
        const r = await listCall(s.base, agent, cookie, isSignalled);
        outcomes.push(r);
        calls++;
        if (r.result !== 200) break; // refused once the server has stopped listening
      }
      agent.destroy();
    });
    // and one large download, its first bytes received, held by a paused reader
    const d = await download(s.base, cookie, big.id);
    expect(d.res.statusCode).toBe(200);
    await new Promise<void>((ok) => {
      d.res.once('data', () => {
        d.res.pause();
        ok();
      });
      d.res.resume();
    });
    await until('the list clients running', async () => (calls >= 8 ? true : null));

    // a turn of this process's event loop, so that every request written so far is on the wire
    await new Promise((r) => setImmediate(r));
    signalled = true;
    s.proc.kill('SIGTERM');
    // the health check turns 503 while the download is still held
    await until('health 503', async () => {
      try {
        const res = await fetch(`${s.base}/esm-server/health`);
        return res.status === 503 ? true : null;
      } catch {
        return true; // or no longer accepts connections at all: a load balancer sees it down either way
      }
    });
    d.res.resume();
    const got = await d.done;
    await Promise.all(loops);
    const exit = await s.exited;

    expect(got).toEqual({ received: BIG, complete: true });
    const failedBefore = outcomes.filter((o) => o.sentBefore && o.result !== 200);
    expect(failedBefore).toEqual([]);
    expect(outcomes.filter((o) => o.sentBefore).length).toBeGreaterThanOrEqual(8);
    expect(exit).toEqual({ code: 0, signal: null });

    const row = (await downloadRows())[0]!;
    expect(row).toMatchObject({ outcome: 'OK' });
    expect(await deliveryOf(row.id)).toMatchObject({ complete: true, bytesSent: BigInt(BIG), bytesTotal: BigInt(BIG) });
  });

  it('past the grace, a download still running is cut: logged 不完整 with the bytes sent, the process exits non-zero saying how many it cut', async () => {
    const s = await startServer(1);
    const cookie = await login(admin.app, 'demo3');
    const d = await download(s.base, cookie, big.id);
    await new Promise<void>((ok) => {
      d.res.once('data', () => {
        d.res.pause(); // and never reads again: the download cannot finish within the grace
        ok();
      });
      d.res.resume();
    });
    s.proc.kill('SIGTERM');
    const exit = await s.exited;
    expect(exit.code).toBe(1);
    expect(s.output()).toMatch(/"cut":1\b/);
    d.res.resume();
    expect((await d.done).complete).toBe(false);

    const row = (await downloadRows())[0]!;
    const delivery = await deliveryOf(row.id);
    expect(delivery.complete).toBe(false);
    expect(Number(delivery.bytesSent)).toBeGreaterThan(0);
    expect(Number(delivery.bytesSent)).toBeLessThan(BIG);
    expect(row).toMatchObject({
      outcome: 'PARTIAL',
      delivery: { bytesSent: Number(delivery.bytesSent), bytesTotal: BIG },
    });
  });
});
