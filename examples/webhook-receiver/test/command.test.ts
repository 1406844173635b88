/**
 * The receiver run with the command its README gives (`pnpm --filter @engagekit/example-webhook-receiver
 * start`, from the repository root): it takes a signed delivery, refuses a forged one, and exits 0 on
 * Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { signWebhook } from '@engagekit/sdk/webhooks';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('the README command', () => {
  it('starts the receiver, which verifies deliveries, and stops with exit code 0 on Ctrl-C', async () => {
    const child = spawn('pnpm', ['--filter', '@engagekit/example-webhook-receiver', 'start'], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGAGEKIT_WEBHOOK_SECRET: SECRET, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own, as a terminal's foreground job: Ctrl-C signals all of it.
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      out += String(d);
    });
    const exited = new Promise<number | null>((ok) => child.once('exit', ok));
    try {
      const url = await new Promise<string>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no ready line in 50 s:\n${out}`)), 50_000);
        child.stdout.on('data', () => {
          const m = /webhook receiver listening on (\S+)/.exec(out);
          if (m?.[1]) {
            clearTimeout(timer);
            ok(m[1]);
          }
        });
      });
      const at = new Date().toISOString();
      const order = {
        id: 'ord_cmd_1',
        company_id: 'VERPL000972024',
        company_order_id: 'CMD-1',
        firstName: 'Asha',
        phoneNumber: '+919800000001',
        totalAmount: 10,
        products: [],
        version: 1,
        created_at: at,
        updated_at: at,
      };
      const body = JSON.stringify({ id: 'evt_cmd_1', type: 'order.created', created_at: at, data: { order } });
      const headers = { 'content-type': 'application/json', ...(await signWebhook(body, SECRET)) };
      expect((await fetch(url, { method: 'POST', headers, body })).status, out).toBe(204);
      expect((await fetch(url, { method: 'POST', headers, body: body.replace('Asha', 'Eve') })).status).toBe(400);
      // The line comes through pnpm's output a moment later: a limit load cannot reach.
      await expect.poll(() => out, { timeout: 30_000 }).toContain('order.created CMD-1: Asha +919800000001, total 10 (v1)');
    } finally {
      process.kill(-(child.pid as number), 'SIGINT');
    }
    expect(await exited).toBe(0);
    expect(out).not.toMatch(/Command failed|ELIFECYCLE/);
  }, 120_000);
});
