import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_HTTP_PORT, readConfig } from './config.ts';

const LIVE = { ENGAGEKIT_BASE_URL: 'https://api.example.com', ENGAGEKIT_TOKEN: 'eyJ.token', ENGAGEKIT_UUID: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61' };
const noFiles = (path: string): string => {
  throw new Error(`ENOENT: no such file, open '${path}'`);
};

describe('readConfig', () => {
  it('serves stdio against the live API from the environment by default', () => {
    expect(readConfig([], LIVE, noFiles)).toEqual({
      kind: 'serve',
      transport: 'stdio',
      port: DEFAULT_HTTP_PORT,
      host: '127.0.0.1',
      server: { target: 'api', readOnly: false, limits: {}, api: { baseUrl: 'https://api.example.com', token: 'eyJ.token', uuid: LIVE.ENGAGEKIT_UUID } },
    });
  });

  it('reads every flag', () => {
    const config = readConfig(
      [
        '--target',
        'mock',
        '--read-only',
        '--data',
        'shop.json',
        '--seed',
        '7',
        '--time-limit',
        '5',
        '--memory-limit',
        '32',
        '--max-calls',
        '10',
        '--transport',
        'http',
        '--port',
        '0',
      ],
      {},
      () => '{"customers":[]}',
    );
    expect(config).toEqual({
      kind: 'serve',
      transport: 'http',
      port: 0,
      host: '127.0.0.1',
      server: {
        target: 'mock',
        readOnly: true,
        mockSeed: 7,
        mockData: { customers: [] },
        mockDataSource: '--data shop.json',
        limits: { timeMs: 5_000, memoryBytes: 32 * 2 ** 20, maxCalls: 10 },
      },
    });
  });

  it('takes ENGAGEKIT_ORDER_BASE_URL and ENGAGEKIT_LOG', () => {
    const config = readConfig([], { ...LIVE, ENGAGEKIT_ORDER_BASE_URL: 'https://orders.example.com', ENGAGEKIT_LOG: 'debug' }, noFiles);
    expect(config.kind === 'serve' && config.server.api).toMatchObject({ orderBaseUrl: 'https://orders.example.com', logLevel: 'debug' });
  });

  it.each([
    [[], {}, 'The live API needs ENGAGEKIT_BASE_URL, ENGAGEKIT_TOKEN, ENGAGEKIT_UUID in the environment'],
    [[], { ...LIVE, ENGAGEKIT_TOKEN: '' }, 'The live API needs ENGAGEKIT_TOKEN'],
    [[], { ...LIVE, ENGAGEKIT_BASE_URL: 'api.example.com' }, 'ENGAGEKIT_BASE_URL must be an absolute http(s) URL'],
    [[], { ...LIVE, ENGAGEKIT_UUID: 'acme' }, 'ENGAGEKIT_UUID must be the company UUID'],
    [['--target', 'live'], LIVE, '--target must be api or mock, not "live"'],
    [['--port', '3100'], LIVE, '--port and --host are for --transport http'],
    [['--transport', 'http', '--port', 'x'], LIVE, '--port must be a number from 0 to 65535'],
    [['--max-calls', '0'], LIVE, '--max-calls must be a number from 1 to 100000'],
    [['--data', 'missing.json'], LIVE, "--data missing.json cannot be read: ENOENT: no such file, open 'missing.json'"],
    [['--frobnicate'], LIVE, "Unknown option '--frobnicate'"],
  ])('refuses %j with %j, saying what to change', (argv, env, message) => {
    expect(() => readConfig(argv as string[], env as Record<string, string>, noFiles)).toThrow(ConfigError);
    expect(() => readConfig(argv as string[], env as Record<string, string>, noFiles)).toThrow(message);
  });

  it('refuses --data that is not a JSON object', () => {
    expect(() => readConfig(['--target', 'mock', '--data', 'x.json'], {}, () => '{ nope')).toThrow('--data x.json is not JSON');
    expect(() => readConfig(['--target', 'mock', '--data', 'x.json'], {}, () => '[]')).toThrow('--data x.json must hold a JSON object');
  });

  it('needs no environment for --target mock', () => {
    expect(readConfig(['--target', 'mock'], {}, noFiles)).toMatchObject({ kind: 'serve', server: { target: 'mock' } });
  });

  it('answers --help and --version', () => {
    expect(readConfig(['--help'], {}, noFiles)).toEqual({ kind: 'help' });
    expect(readConfig(['--version'], {}, noFiles)).toEqual({ kind: 'version' });
  });

  it('reads --tools, and needs no live API for a docs-only server', () => {
    const docs = readConfig(['--tools', 'search_docs'], {}, noFiles);
    expect(docs).toMatchObject({ kind: 'serve', server: { tools: ['search_docs'] } });
    expect(docs.kind === 'serve' && docs.server.api).toBeUndefined();
    expect(readConfig(['--tools', 'execute,search_docs'], LIVE, noFiles)).toMatchObject({ server: { tools: ['search_docs', 'execute'] } });
    expect(() => readConfig(['--tools', 'search'], LIVE, noFiles)).toThrow('--tools takes search_docs, execute (comma-separated), not "search".');
  });

  it('reads the answer maximum from --max-answer or ENGAGEKIT_MCP_MAX_ANSWER, the flag first', () => {
    expect(readConfig(['--max-answer', '50000'], LIVE, noFiles)).toMatchObject({ server: { limits: { maxAnswerChars: 50_000 } } });
    expect(readConfig([], { ...LIVE, ENGAGEKIT_MCP_MAX_ANSWER: '20000' }, noFiles)).toMatchObject({ server: { limits: { maxAnswerChars: 20_000 } } });
    expect(readConfig(['--max-answer', '30000'], { ...LIVE, ENGAGEKIT_MCP_MAX_ANSWER: '20000' }, noFiles)).toMatchObject({
      server: { limits: { maxAnswerChars: 30_000 } },
    });
    expect(() => readConfig([], { ...LIVE, ENGAGEKIT_MCP_MAX_ANSWER: '5' }, noFiles)).toThrow(
      '--max-answer (or ENGAGEKIT_MCP_MAX_ANSWER) must be a number from 10000 to 10000000, not "5".',
    );
  });
});
