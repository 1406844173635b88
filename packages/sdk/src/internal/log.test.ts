import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeFetch, json } from '../../test/helpers/fake-fetch.ts';
import { createAdminClient } from '../admin-client.ts';
import { createClient } from '../create-client.ts';
import { APIConnectionError, InternalServerError } from '../errors.ts';
import { createLog, type Logger, type LogLevel } from './log.ts';
import { send, type TransportDeps } from './transport.ts';

const TOKEN = 'tok_secret_123';
const UUID = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';

/** A logger that records every call as `[method, message]`. */
function recordingLogger() {
  const lines: [string, string][] = [];
  const at =
    (method: string) =>
    (message: string, ...rest: unknown[]) => {
      lines.push([method, message]);
      expect(rest).toEqual([]);
    };
  const logger: Logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { logger, lines };
}

/** A logger whose every method fails the test. */
const forbiddenLogger: Logger = {
  error: () => expect.unreachable('logger.error called'),
  warn: () => expect.unreachable('logger.warn called'),
  info: () => expect.unreachable('logger.info called'),
  debug: () => expect.unreachable('logger.debug called'),
};

const ok = (data: unknown, requestId: string) => json(200, { success: true, message: 'OK', data }, { 'x-request-id': requestId });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('createLog', () => {
  it.each<[LogLevel, string[]]>([
    ['off', []],
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['info', ['error', 'warn']],
    ['debug', ['error', 'warn', 'debug']],
  ])('at %s lets through %j', (level, methods) => {
    const { logger, lines } = recordingLogger();
    const log = createLog(level, logger);
    log?.('error', 'e');
    log?.('warn', 'w');
    log?.('debug', 'd');
    expect(lines.map(([method]) => method)).toEqual(methods);
  });

  it('prefixes every line with engagekit', () => {
    const { logger, lines } = recordingLogger();
    createLog('error', logger)?.('error', 'GET https://api.test/x 500');
    expect(lines).toEqual([['error', 'engagekit: GET https://api.test/x 500']]);
  });

  it('is undefined at off, so a call does no log work', () => {
    expect(createLog('off', forbiddenLogger)).toBeUndefined();
  });

  it('is off by default, with neither a level, a logger nor ENGAGEKIT_LOG', () => {
    vi.stubEnv('ENGAGEKIT_LOG', undefined);
    expect(createLog(undefined, undefined)).toBeUndefined();
  });

  it('defaults to warn when a logger is given and off without one', () => {
    vi.stubEnv('ENGAGEKIT_LOG', undefined);
    const { logger, lines } = recordingLogger();
    const log = createLog(undefined, logger);
    log?.('warn', 'w');
    log?.('debug', 'd');
    expect(lines.map(([method]) => method)).toEqual(['warn']);
    expect(createLog(undefined, undefined)).toBeUndefined();
  });

  it('takes no level from the environment where reading it throws (Deno without --allow-env)', () => {
    const env = process.env;
    const refusing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('NotCapable: Requires env access to "ENGAGEKIT_LOG"');
        },
      },
    );
    Object.defineProperty(process, 'env', { value: refusing, configurable: true, writable: true });
    try {
      expect(createLog(undefined, undefined)).toBeUndefined();
    } finally {
      Object.defineProperty(process, 'env', { value: env, configurable: true, writable: true });
    }
  });

  it('reads ENGAGEKIT_LOG when no level is given', () => {
    vi.stubEnv('ENGAGEKIT_LOG', 'debug');
    const { logger, lines } = recordingLogger();
    createLog(undefined, logger)?.('debug', 'd');
    expect(lines).toEqual([['debug', 'engagekit: d']]);
  });

  it('lets the logLevel option win over ENGAGEKIT_LOG', () => {
    vi.stubEnv('ENGAGEKIT_LOG', 'debug');
    expect(createLog('off', forbiddenLogger)).toBeUndefined();
    const { logger, lines } = recordingLogger();
    const log = createLog('error', logger);
    log?.('debug', 'd');
    log?.('error', 'e');
    expect(lines.map(([method]) => method)).toEqual(['error']);
  });

  it('treats an unknown ENGAGEKIT_LOG value as off', () => {
    vi.stubEnv('ENGAGEKIT_LOG', 'verbose');
    expect(createLog(undefined, forbiddenLogger)).toBeUndefined();
  });
});

describe('logging of calls', () => {
  /** `method URL status (attempt n, t ms, x-request-id id)`, with the time left open. */
  const attemptLine = (what: string, status: number | string, attempt: number, requestId: string) =>
    new RegExp(`^engagekit: ${what.replace(/[?.]/g, '\\$&')} ${status} \\(attempt ${attempt}, \\d+ ms, x-request-id ${requestId}\\)`);

  it('writes one line per attempt at debug: a retried 503 (warn, with the delay), then the 200 (debug); never the token', async () => {
    const { logger, lines } = recordingLogger();
    const f = fakeFetch((_, n) => (n === 1 ? apiError(503, 'unavailable', 'down', {}, { 'retry-after': '0' }) : ok({ id: 'cmp_1' }, 'req_ok')));
    const client = createClient({ baseUrl: 'http://api.test', token: TOKEN, uuid: UUID, fetch: f.fetch, logLevel: 'debug', logger });
    await client.campaigns.get('cmp_1');
    expect(f.calls).toHaveLength(2);
    const url = `http://api.test/agency/getCampaign/cmp_1?uuid=${UUID}`;
    expect(lines).toHaveLength(2);
    expect(lines[0]?.[0]).toBe('warn');
    expect(lines[0]?.[1]).toMatch(attemptLine(`GET ${url}`, 503, 1, 'req_503'));
    expect(lines[0]?.[1]).toMatch(/; retrying in 0 ms$/);
    expect(lines[1]?.[0]).toBe('debug');
    expect(lines[1]?.[1]).toMatch(attemptLine(`GET ${url}`, 200, 2, 'req_ok'));
    expect(lines[1]?.[1]).toMatch(/\)$/);
    for (const [, message] of lines) expect(message).not.toContain(TOKEN);
  });

  it('takes the milliseconds of each attempt from the clock', async () => {
    const { logger, lines } = recordingLogger();
    let now = 1_000;
    const deps: TransportDeps = { sleep: async () => {}, random: () => 0, now: () => now };
    const f = fakeFetch(() => {
      now += 42;
      return ok({}, 'req_1');
    });
    await send(
      new Request('http://api.test/agency/sync', { method: 'POST' }),
      { fetch: f.fetch, maxRetries: 2, timeout: 60_000, log: createLog('debug', logger) },
      deps,
    );
    expect(lines).toEqual([['debug', 'engagekit: POST http://api.test/agency/sync 200 (attempt 1, 42 ms, x-request-id req_1)']]);
  });

  it('logs a call that failed for good as an error, after the retries it warned of', async () => {
    const { logger, lines } = recordingLogger();
    const f = fakeFetch(() => apiError(500, 'internal_error', 'boom', {}, { 'retry-after': '0' }));
    const admin = createAdminClient({ baseUrl: 'http://api.test', adminToken: TOKEN, fetch: f.fetch, maxRetries: 1, logLevel: 'warn', logger });
    await expect(admin.health()).rejects.toBeInstanceOf(InternalServerError);
    expect(lines.map(([method]) => method)).toEqual(['warn', 'error']);
    expect(lines[1]?.[1]).toMatch(attemptLine('GET http://api.test/api/v2/health', 500, 2, 'req_500'));
    for (const [, message] of lines) expect(message).not.toContain(TOKEN);
  });

  it('says why no answer came when the connection fails', async () => {
    const { logger, lines } = recordingLogger();
    const f = fakeFetch(() => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    });
    const client = createClient({ baseUrl: 'http://api.test', token: TOKEN, uuid: UUID, fetch: f.fetch, maxRetries: 0, logLevel: 'error', logger });
    await expect(client.reports.get()).rejects.toBeInstanceOf(APIConnectionError);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[0]).toBe('error');
    expect(lines[0]?.[1]).toContain('(ECONNREFUSED)');
    expect(lines[0]?.[1]).toContain('(attempt 1, ');
  });

  it('logs the low-level clients’ calls too', async () => {
    const { logger, lines } = recordingLogger();
    const f = fakeFetch(() => ok({ status: 'ok' }, 'req_h'));
    const admin = createAdminClient({ baseUrl: 'http://api.test', adminToken: TOKEN, fetch: f.fetch, logLevel: 'debug', logger });
    await admin.api.GET('/api/v2/health');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[1]).toMatch(attemptLine('GET http://api.test/api/v2/health', 200, 1, 'req_h'));
  });

  it('logs nothing and never calls the logger at off, even with ENGAGEKIT_LOG set', async () => {
    vi.stubEnv('ENGAGEKIT_LOG', 'debug');
    const f = fakeFetch((_, n) => (n === 1 ? apiError(503, 'unavailable', 'down', {}, { 'retry-after': '0' }) : ok({}, 'req_ok')));
    const client = createClient({ baseUrl: 'http://api.test', token: TOKEN, uuid: UUID, fetch: f.fetch, logLevel: 'off', logger: forbiddenLogger });
    await client.agency.sync();
    await client.api.agency.GET('/api/v2/health');
    expect(f.calls).toHaveLength(3);
  });
});
