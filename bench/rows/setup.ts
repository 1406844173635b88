import type pg from 'pg';
import { freshDatabase, jsonCaller, type ServerProcess, startServerProcess } from '../../packages/reference-server/test/helpers.ts';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** The `engagekit-server` command as the package declares it (`bin` of its package.json), run from its build. */
const SERVER_COMMAND = new URL('../../packages/reference-server/bin/engagekit-server.js', import.meta.url).pathname;

/**
 * Runs the `engagekit-server` command (`node bin/engagekit-server.js`) until its ready line, as the test
 * helper runs the package's build: a row that reads the process's CPU time measures the command a user runs.
 */
export const startCommand = (env: Record<string, string>, timeoutMs = 60_000) => startServerProcess(env, timeoutMs, SERVER_COMMAND);

/**
 * A reference server process on PostgreSQL (a fresh database) or PGlite, with a company, a token and a
 * campaign. With BENCH_PROF_DIR=<dir> set, the server writes a CPU profile there when it stops. `start`
 * runs the process: the package's `dist/cli.js` by default, or `startCommand` where a row reads its CPU.
 */
export async function benchServer<P extends ServerProcess = ServerProcess>(
  database: 'postgres' | 'pglite',
  env: Record<string, string> = {},
  start: (env: Record<string, string>, timeoutMs: number) => Promise<P> = startServerProcess as (env: Record<string, string>, timeoutMs: number) => Promise<P>,
) {
  const profile: Record<string, string> = process.env.BENCH_PROF_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROF_DIR}` } : {};
  const extra: Record<string, string> = {
    ADMIN_TOKEN,
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'error',
    DEMO_COMPANY: '0',
    WEBHOOK_ALLOW_PRIVATE: '1',
    ...profile,
    ...env,
  };
  let drop = async () => {};
  if (database === 'postgres') {
    const db = await freshDatabase('bench');
    if (!db) throw new Error('DATABASE_URL is needed for the PostgreSQL rows');
    extra.DATABASE_URL = db.url;
    drop = db.drop;
  }
  // A server that does not start leaves no database behind.
  const server = await start(extra, 60_000).catch(async (error: unknown) => {
    await drop();
    throw error;
  });
  const api = jsonCaller(server.url);
  const call = async (method: string, path: string, token: string, body?: unknown) => (await api(method, path, token, body)).data;
  const company = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Bench', company_id: 'BENCH' });
  const { token } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
  // The campaigns' template, submitted as a company does (with CHANNEL=whatsapp a campaign may use only such a one).
  await call('POST', `/agency/template?uuid=${company.uuid}`, token, { template_name: 'welcome', phone_number: '15550000000', wam_id: 'bench-welcome' });
  const campaign = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, token, {
    name: 'bench',
    schedule_type: 'once',
    schedule: '2099-01-01T00:00:00Z',
    template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
  });
  return {
    server,
    /** The environment the server was started with: another instance on the same database starts with it. */
    env: extra,
    url: server.url,
    databaseUrl: extra.DATABASE_URL,
    uuid: company.uuid as string,
    companyId: company.company_id as string,
    token: token as string,
    campaignId: campaign.id as string,
    call,
    async stop() {
      await server.stop();
      await drop();
    },
  };
}

/** `count` customers of a company straight into the table, as the admin import stores them (source 'import', no orders). */
export async function insertImportedCustomers(db: pg.Client, companyUuid: string, count: number, idPrefix: string): Promise<void> {
  await db.query(
    `INSERT INTO customers (id, company_uuid, phone_number, name, first_name, last_name, email, source, orders_count, orders_amount, created_at, updated_at)
     SELECT $2 || lpad(g::text, 7, '0'), $1, '+1415' || lpad(g::text, 7, '0'), 'Customer' || g, 'Customer' || g, NULL, NULL, 'import', 0, 0, now(), now()
       FROM generate_series(1, $3::int) AS g`,
    [companyUuid, idPrefix, count],
  );
}
