/**
 * Runs the quickstart with the command its README gives (`pnpm --filter @engagekit/example-quickstart
 * start`, from the repository root, a child process) against the real reference server, on the demo
 * company with a token from the admin API.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../../packages/reference-server/test/helpers.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const ADMIN_TOKEN = 'quickstart-admin-token-0123456789';
const DEMO_UUID = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';

function runQuickstart(env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'pnpm',
      ['--filter', '@engagekit/example-quickstart', 'start'],
      { cwd: REPO, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('examples/quickstart', () => {
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    server = await startServerProcess({ ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0' });
    const res = await fetch(`${server.url}/api/v2/companies/${DEMO_UUID}/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ expires_in: 3600 }),
    });
    token = ((await res.json()) as { data: { token: string } }).data.token;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('creates a campaign, meets a typed error, adds and updates an order, and pages through campaigns and customers', async () => {
    const { code, stdout, stderr } = await runQuickstart({ ENGAGEKIT_BASE_URL: server.url, ENGAGEKIT_TOKEN: token, ENGAGEKIT_UUID: DEMO_UUID });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const id = /^Created campaign (\S+) "Quickstart [^"]+": scheduled, runs at \d{4}-\d\d-\d\dT/m.exec(stdout)?.[1];
    expect(id, stdout).toBeDefined();
    expect(stdout).toMatch(/^A second "Quickstart [^"]+" is refused: 409 conflict, "Campaign name already exists" \(request req_\S+\)$/m);
    expect(stdout).toMatch(/^Added order QS-\d+: HTTP 201, version 1$/m);
    expect(stdout).toMatch(/^Updated order QS-\d+: Shipped, version 2$/m);
    expect(stdout).toMatch(/^Campaigns: 1 in 1 page\(s\) of 10$/m);
    expect(stdout).toMatch(/^ {2}found Quickstart \S+ at position 1, oldest first$/m);
    expect(stdout).toMatch(/^ {2}Asha Rao \+919800000001: 1 order\(s\), 1499\.5 total$/m);
    expect(stdout.trim().endsWith('Done.')).toBe(true);

    // What it printed is what the server holds.
    const stored = await fetch(`${server.url}/agency/getCampaign/${id}?uuid=${DEMO_UUID}`, { headers: { authorization: `Bearer ${token}` } });
    expect(stored.status).toBe(200);
  });

  it('says which variables to set when they are missing', async () => {
    const { code, stderr } = await runQuickstart({ ENGAGEKIT_BASE_URL: server.url });
    expect(code).toBe(1);
    expect(stderr).toContain('Set ENGAGEKIT_BASE_URL, ENGAGEKIT_TOKEN and ENGAGEKIT_UUID first');
  });

  it('reports an API error by its class and message, exiting 1', async () => {
    const { code, stderr } = await runQuickstart({ ENGAGEKIT_BASE_URL: server.url, ENGAGEKIT_TOKEN: 'not.a.jwt', ENGAGEKIT_UUID: DEMO_UUID });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^AuthenticationError: Unauthorized/m);
  });
});
