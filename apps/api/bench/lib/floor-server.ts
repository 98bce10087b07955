/**
 * The framework floor of the list benchmarks (BENCH_FLOOR=1, list-bench.ts): a bare Fastify 5
 * server doing for each call what the "raw + session statements" loop does — the session read
 * (and its touch when due) and the case's statements through `pg`, from a pool as large as the
 * api's — and answering the last statement's rows as JSON. No session or auth plugin, no zod, no
 * envelope, no row mapping: what any api on this stack pays per call and cannot leave out. So api ÷
 * floor is what the portal's own code costs, and floor ÷ raw what the HTTP hop and Fastify cost on
 * this machine. The statements are set before each case (POST /floor/statements): those the case's
 * raw function sent once, replayed as they were.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { CONNECTION_OPTIONS } from '../../src/db/database.ts';
import { sidOf } from './api-client.ts';
import { withSessionStatements } from './session-sql.ts';

const sql = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.FLOOR_POOL ?? 10),
  options: CONNECTION_OPTIONS,
});
let statements: pg.QueryConfig[] = [];

const app = Fastify({ logger: false });
app.get('/esm-server/health', async () => ({ ok: true }));
app.post('/floor/statements', async (request) => {
  statements = request.body as pg.QueryConfig[];
  return { ok: true };
});
app.post('/esm-server/api/*', async (request, reply) => {
  const cookie = request.headers.cookie?.split(/;\s*/).find((c) => c.startsWith('esm_sid='));
  if (!cookie) return reply.code(401).send({ success: false });
  const rows = await withSessionStatements(sql, sidOf(cookie), async () => {
    let last: Record<string, unknown>[] = [];
    for (const s of statements) last = (await sql.query(s)).rows;
    return last;
  });
  return { success: true, data: rows };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
