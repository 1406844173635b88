import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { WhatsAppEmulator } from '../../whatsapp-emulator/src/index.ts';

/** A fresh PostgreSQL database made from DATABASE_URL, dropped by `drop()`; null when DATABASE_URL is unset. */
export async function freshDatabase(label: string): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  const name = `engagekit_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const MIGRATIONS = join(PACKAGE_DIR, 'drizzle');

/**
 * An embedded database with every migration applied, made once for each set of migrations and PGlite
 * version (kept in node_modules/.cache: `pglite/`, a data directory, and `dump.tar`, the same database
 * as PGlite's dump) and copied for each server or scratch store a test opens: PGlite makes a new
 * database by running initdb in WebAssembly, 4 s of CPU alone and up to 20 s beside the rest of the
 * suite, which the tests' thirty-odd embedded databases paid each; a copy takes a fraction of a second.
 * A server's first start on an empty data directory stays tested by `pnpm start`'s test
 * (scripts/build/start.test.ts) and the packaging test, a migration from nothing by migrations.test.ts.
 */
function migratedPglite(): Promise<string> {
  made ??= makeMigratedPglite();
  return made;
}
let made: Promise<string> | undefined;

async function makeMigratedPglite(): Promise<string> {
  const { PGlite } = await import('@electric-sql/pglite');
  // The installed PGlite's path names its version (pnpm's store layout).
  const hash = createHash('sha256').update(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (const file of readdirSync(MIGRATIONS, { recursive: true, encoding: 'utf8' }).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(join(MIGRATIONS, file)));
  }
  const dir = join(PACKAGE_DIR, 'node_modules', '.cache', `engagekit-migrated-pglite-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(dir, 'dump.tar'))) return dir;
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const building = `${dir}.${process.pid}`;
  mkdirSync(building, { recursive: true });
  const db = await PGlite.create(join(building, 'pglite'));
  await migrate(drizzle(db), { migrationsFolder: MIGRATIONS });
  writeFileSync(join(building, 'dump.tar'), new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer()));
  await db.close();
  // Made whole, then renamed into place: a test process that made it at the same time keeps its own copy.
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** A new temporary DATA_DIR for a server on the embedded database, its database already migrated. */
export async function pgliteDataDir(prefix = 'engagekit-e2e-'): Promise<string> {
  const template = await migratedPglite();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(template, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}

/** A migrated embedded database as a dump, for `openSqlStore({ memory: true, loadDataDir })`. */
export async function migratedPgliteDump(): Promise<Blob> {
  return new Blob([readFileSync(join(await migratedPglite(), 'dump.tar'))]);
}

/** dist/cli.js, the `engagekit-server` command as the package ships it (the tests' global setup builds it). */
export const SERVER_MAIN = new URL('../dist/cli.js', import.meta.url).pathname;

/** A reference server process started for a test. */
export interface ServerProcess {
  url: string;
  /** Its process id (a bench row reads its CPU time). */
  pid: number;
  output: () => string;
  /** Sends SIGTERM and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `node <script>` (the package's `dist/cli.js` by default) on a free port and waits for its ready
 * line, with only PATH and `env` in its environment. Without a `DATA_DIR` in `env`, the server gets a
 * temporary one (with its embedded database already migrated, when it has no `DATABASE_URL`), removed
 * once the process has exited; a `DATA_DIR` given is the caller's to remove.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 30_000, script = SERVER_MAIN): Promise<ServerProcess> {
  let ownDataDir: string | undefined;
  if (env.DATA_DIR === undefined) ownDataDir = env.DATABASE_URL ? mkdtempSync(join(tmpdir(), 'engagekit-e2e-')) : await pgliteDataDir();
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  child.stderr.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((ok) =>
    child.once('exit', (code) => {
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
      ok(code);
    }),
  );
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => {
      // A server that never got ready is stopped, not left running after the test.
      child.kill('SIGKILL');
      fail(new Error(`server not ready in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before it was ready:\n${out}`));
    });
  });
  return {
    url,
    pid: child.pid as number,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

/**
 * A JSON caller for the API at `baseUrl`: `call(method, path, token, body?)` resolves to the whole
 * answer envelope and rejects on an error status, naming the call and quoting the answer.
 */
export function jsonCaller(baseUrl: string) {
  return async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** The settings that send a server's campaigns (`CHANNEL=whatsapp`) to a WhatsApp emulator, and check its webhooks. */
export function whatsappEnvFor(wa: Pick<WhatsAppEmulator, 'apiUrl' | 'accessToken' | 'phoneNumberId' | 'appSecret' | 'verifyToken'>): Record<string, string> {
  return {
    CHANNEL: 'whatsapp',
    WHATSAPP_API_URL: wa.apiUrl,
    WHATSAPP_ACCESS_TOKEN: wa.accessToken,
    WHATSAPP_PHONE_NUMBER_ID: wa.phoneNumberId,
    WHATSAPP_APP_SECRET: wa.appSecret,
    WHATSAPP_VERIFY_TOKEN: wa.verifyToken,
  };
}

export { sampleOrder } from '../../runtime/test/sample-order.ts';
