/**
 * Where `listen()` cannot intercept: MSW's Node interception patches Node's own modules, and under Bun
 * and Deno it silently lets requests through to the network (Bun's `fetch` cannot be replaced; Deno's
 * `fetch` is not Node's). A request meant for the mock would then reach the real `baseUrl`.
 */

/** The runtime `listen()` cannot intercept in, by name and version; undefined under Node. */
export function runtimeWithoutInterception(
  global: { Deno?: unknown; process?: { versions?: Record<string, string | undefined> } } = globalThis,
): string | undefined {
  const deno = global.Deno as { version?: { deno?: string } } | undefined;
  if (deno) return `Deno ${deno.version?.deno ?? ''}`.trim();
  const bun = global.process?.versions?.bun;
  if (bun) return `Bun ${bun}`;
  return undefined;
}

/** Thrown by `listen()` where it cannot intercept: names `mock.fetch`, which works everywhere. */
export class MockListenError extends Error {
  constructor(runtime: string, baseUrl: string) {
    super(
      `mock.listen() cannot intercept requests under ${runtime}: MSW's interception does not hold there, and requests for ${baseUrl} would go to the network. Hand the mock to your client instead: createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch }).`,
    );
    this.name = 'MockListenError';
  }
}
