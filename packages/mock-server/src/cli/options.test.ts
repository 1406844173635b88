import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCli } from './options.ts';

describe('parseCli', () => {
  it('defaults to the memory engine on 127.0.0.1:4010 without a seed or a rate limit', () => {
    expect(parseCli([], {})).toEqual({
      kind: 'serve',
      engine: 'memory',
      port: 4010,
      host: '127.0.0.1',
      seed: undefined,
      adminToken: undefined,
      webhookUrl: undefined,
      dataFile: undefined,
      rateLimitPerMinute: 0,
      manualClock: false,
      webhookDelivery: undefined,
      sessionIdleMs: 15 * 60_000,
      maxSessions: 100,
    });
  });

  it('reads the sessions’ settings from flags, else the environment', () => {
    expect(parseCli(['--session-idle', '90s', '--max-sessions', '8'], { MOCK_SESSION_IDLE: '1h', MOCK_MAX_SESSIONS: '3' })).toMatchObject({
      sessionIdleMs: 90_000,
      maxSessions: 8,
    });
    expect(parseCli([], { MOCK_SESSION_IDLE: '1h', MOCK_MAX_SESSIONS: '3' })).toMatchObject({ sessionIdleMs: 3_600_000, maxSessions: 3 });
    expect(parseCli(['--session-idle', '120000', '--webhook-delivery', 'record'], {})).toMatchObject({ sessionIdleMs: 120_000, webhookDelivery: 'record' });
    expect(() => parseCli(['--session-idle', 'soon'], {})).toThrow('--session-idle must be a duration such as 90s, 30m or 2h (or milliseconds), not "soon".');
    expect(() => parseCli([], { MOCK_SESSION_IDLE: '10ms' })).toThrow('MOCK_SESSION_IDLE must be at least 1s, not "10ms".');
    expect(() => parseCli([], { MOCK_MAX_SESSIONS: 'many' })).toThrow('MOCK_MAX_SESSIONS must be a whole number from 0 to 100000, not "many".');
    expect(() => parseCli(['--engine', 'prism', '--max-sessions', '2'], {})).toThrow(/the prism engine has no sessions/);
    expect(() => parseCli(['--webhook-delivery', 'drop'], {})).toThrow('--webhook-delivery must be send or record, not "drop".');
  });

  it('skips the `--` that pnpm start -- passes, and reads every flag', () => {
    expect(
      parseCli(
        [
          '--',
          '--port',
          '0',
          '--seed',
          '42',
          '--engine',
          'prism',
          '--host',
          '::1',
          '--webhook-url',
          'http://127.0.0.1:9/h',
          '--rate-limit',
          '5',
          '--clock',
          'manual',
        ],
        {
          ADMIN_TOKEN: 'a-long-enough-token',
        },
      ),
    ).toMatchObject({
      port: 0,
      seed: 42,
      engine: 'prism',
      host: '::1',
      webhookUrl: 'http://127.0.0.1:9/h',
      rateLimitPerMinute: 5,
      manualClock: true,
      adminToken: 'a-long-enough-token',
    });
  });

  it('keeps a seed that is not a number as a string', () => {
    expect(parseCli(['--seed', 'demo'], {})).toMatchObject({ seed: 'demo' });
  });

  it('reads init and help', () => {
    expect(parseCli(['init', 'public'], {})).toEqual({ kind: 'init', publicDir: 'public' });
    expect(parseCli(['-h'], {})).toEqual({ kind: 'help' });
  });

  it('refuses what it cannot run, saying what to change', () => {
    expect(() => parseCli(['--port', '70000'], {})).toThrow(CliUsageError);
    expect(() => parseCli(['--port', '70000'], {})).toThrow('--port must be a whole number from 0 to 65535, not "70000".');
    expect(() => parseCli(['--engine', 'x'], {})).toThrow('--engine must be memory or prism');
    expect(() => parseCli(['--clock', 'fast'], {})).toThrow('--clock must be real or manual, not "fast".');
    expect(() => parseCli(['--colour'], {})).toThrow(/Unknown option '--colour'/);
    expect(() => parseCli(['serve'], {})).toThrow('Unknown command "serve"');
    expect(() => parseCli(['--webhook-url', 'ftp://x'], {})).toThrow('--webhook-url must be an http(s) URL');
    expect(() => parseCli([], { ADMIN_TOKEN: 'short' })).toThrow('ADMIN_TOKEN must be at least 16 characters');
  });
});
