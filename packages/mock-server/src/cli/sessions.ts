/**
 * Sessions of the HTTP mock: `/__session/{name}` is a whole mock of its own (store, companies, clock,
 * faults, journal, webhook log, channel outcomes, snapshots and fixtures), made on its first request
 * from the process's options, ended by `DELETE /__session/{name}` or after an idle time. Each is a
 * `MockApi` under the base URL `{process}/__session/{name}`, so it runs the runtime's app and the
 * mock's own parts, unchanged; only which one a request goes to is decided here.
 */
import type { ErrorStatus } from '@engagekit/contract';
import { errorAnswer, HttpError } from '@engagekit/runtime';
import type { MockApi } from '../mock-api.ts';

/** The path prefix of a session: `/__session/{name}/...`. */
export const SESSION_PREFIX = '/__session/';
/** Lists the live sessions. */
export const SESSIONS_PATH = '/__sessions';

/** A session's name: letters, digits, `.`, `_` and `-`, up to 64, starting with a letter or digit. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** How sessions are made and kept. */
export interface SessionOptions {
  /** A session ends this long after its last request ends (milliseconds). */
  idleMs: number;
  /** Sessions live at once; a new one past it is refused with 429 `too_many_sessions`. */
  max: number;
  /** Makes the mock of a new session named `name` (under the base URL `{process}/__session/{name}`). */
  make(name: string): MockApi;
}

/** One live session. */
interface Session {
  name: string;
  mock: MockApi;
  createdAt: number;
  lastUsed: number;
  /** Requests not answered yet: a session is never ended idle under one. */
  inFlight: number;
}

/** A live session as `GET /__sessions` lists it. */
export interface SessionView {
  name: string;
  baseUrl: string;
  createdAt: string;
  lastRequestAt: string;
  /** When it ends if no request comes first. */
  expiresAt: string;
}

const envelope = (message: string, data: unknown) => Response.json({ success: true, message, data });

/** The session a path names, and the path inside it; null for a path outside every session. */
export function sessionOfPath(path: string): { name: string; rest: string } | null {
  if (!path.startsWith(SESSION_PREFIX)) return null;
  const slash = path.indexOf('/', SESSION_PREFIX.length);
  const given = path.slice(SESSION_PREFIX.length, slash === -1 ? undefined : slash);
  let name: string;
  try {
    name = decodeURIComponent(given);
  } catch {
    // Malformed percent-encoding: kept as given, which no name matches.
    name = given;
  }
  return { name, rest: slash === -1 ? '' : path.slice(slash) };
}

/** The live sessions of one process, and the requests under `/__session/` and `/__sessions`. */
export class Sessions {
  readonly #options: SessionOptions;
  readonly #live = new Map<string, Session>();
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(options: SessionOptions) {
    this.#options = options;
    // Idle sessions are looked for a few times per idle time (at least every minute); the timer never keeps the process up.
    this.#sweeper = setInterval(() => void this.#sweep(), Math.max(50, Math.min(60_000, options.idleMs / 4)));
    this.#sweeper.unref();
  }

  /**
   * Answers a request for `/__sessions` or under `/__session/`: the list, a session's end, or the
   * request handed to its session's mock by `serve` (made first if it is new).
   */
  async route(request: Request, path: string, serve: (mock: MockApi, request: Request) => Promise<Response>): Promise<Response> {
    if (path === SESSIONS_PATH) {
      if (request.method !== 'GET') return refuse(request, 405, `${request.method} ${SESSIONS_PATH} is not allowed: GET it to list the live sessions.`);
      return envelope('Live sessions.', { sessions: this.list(), maxSessions: this.#options.max, idleMs: this.#options.idleMs });
    }
    const named = sessionOfPath(path);
    if (!named || !NAME.test(named.name)) {
      return refuse(
        request,
        400,
        `${JSON.stringify(named?.name ?? '')} is not a session name: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit, as in /__session/file-a/...`,
        'session',
      );
    }
    if (named.rest === '' && request.method === 'DELETE') {
      if (!(await this.end(named.name))) return refuse(request, 404, `No session named "${named.name}" is live (GET ${SESSIONS_PATH} lists them).`);
      return envelope(`Session "${named.name}" ended.`, { name: named.name });
    }
    const session = this.#live.get(named.name) ?? this.#start(named.name);
    if (!session) {
      return refuse(
        request,
        429,
        `Too many sessions: ${this.#options.max} are live (--max-sessions, MOCK_MAX_SESSIONS). End one with DELETE ${SESSION_PREFIX}{name}, or let an idle one expire (--session-idle, MOCK_SESSION_IDLE).`,
        undefined,
        'too_many_sessions',
      );
    }
    session.inFlight++;
    try {
      return await serve(session.mock, request);
    } finally {
      session.inFlight--;
      session.lastUsed = Date.now();
    }
  }

  /** The live sessions, oldest first. */
  list(): SessionView[] {
    return [...this.#live.values()].map((s) => ({
      name: s.name,
      baseUrl: s.mock.baseUrl,
      createdAt: new Date(s.createdAt).toISOString(),
      lastRequestAt: new Date(s.lastUsed).toISOString(),
      expiresAt: new Date(s.lastUsed + this.#options.idleMs).toISOString(),
    }));
  }

  /** Ends a session: its mock closes and its name is free again. False when none of that name is live. */
  async end(name: string): Promise<boolean> {
    const session = this.#live.get(name);
    if (!session) return false;
    this.#live.delete(name);
    await session.mock.close();
    return true;
  }

  /** Ends every session and stops looking for idle ones. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#live.keys()].map((name) => this.end(name)));
  }

  #start(name: string): Session | undefined {
    if (this.#live.size >= this.#options.max) return undefined;
    const now = Date.now();
    const session: Session = { name, mock: this.#options.make(name), createdAt: now, lastUsed: now, inFlight: 0 };
    this.#live.set(name, session);
    return session;
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    const idle = [...this.#live.values()].filter((s) => s.inFlight === 0 && now - s.lastUsed >= this.#options.idleMs);
    await Promise.all(idle.map((s) => this.end(s.name)));
  }
}

/** An error answer in the API's envelope, `issues` naming `field` when given. */
function refuse(request: Request, status: ErrorStatus, message: string, field?: string, code?: string): Response {
  return errorAnswer(
    new HttpError(status, message, { ...(field ? { issues: [{ path: field, message: 'is not a session name' }] } : {}), ...(code ? { code } : {}) }),
    request.headers.get('x-request-id') ?? crypto.randomUUID(),
  );
}
