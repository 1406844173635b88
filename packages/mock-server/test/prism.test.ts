/** `engagekit-mock --engine prism`: Prism on openapi.yaml behind the same bin and ready line; a clear message without Prism. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findPrism, PRISM_MISSING } from '../src/cli/prism.ts';
import { startMockProcess } from './helpers.ts';

const PRISM_MODULE = new URL('../src/cli/prism.ts', import.meta.url).pathname;

const accepts = (url: string) =>
  new Promise<boolean>((ok) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      ok(true);
    });
    socket.once('error', () => ok(false));
  });

describe('engagekit-mock --engine prism', () => {
  it('serves the contract’s examples on the ready line’s URL, checks auth as the document says, and stops Prism on SIGTERM', async () => {
    const proc = await startMockProcess(['--engine', 'prism']);
    try {
      expect(proc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${proc.url}/api/v2/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ success: true, data: { status: 'ok' } });
      const uuid = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';
      expect((await fetch(`${proc.url}/agency/getCampaignData?uuid=${uuid}`)).status).toBe(401);
      const list = await fetch(`${proc.url}/agency/getCampaignData?uuid=${uuid}`, { headers: { authorization: 'Bearer anything' } });
      expect(list.status).toBe(200);
      expect(await list.json()).toMatchObject({ success: true, pagination: expect.any(Object) });
      const session = await fetch(`${proc.url}/__session/file-a/api/v2/health`);
      expect(session.status).toBe(404);
      expect(((await session.json()) as { message: string }).message).toMatch(/^The prism engine \(--engine prism\) has no sessions/);
      expect((await fetch(`${proc.url}/__sessions`)).status).toBe(404);
    } finally {
      expect(await proc.stop('SIGTERM')).toBe(0);
    }
    expect(await accepts(proc.url)).toBe(false);
  });

  it('finds no Prism where none is installed, and says how to install it', async () => {
    expect(findPrism()).toMatch(/prism-cli\/dist\/index\.js$/);
    // In a clean environment: pnpm's shims put the whole store on NODE_PATH for this process.
    const dir = mkdtempSync(join(tmpdir(), 'no-prism-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const elsewhere = join(dir, 'x.js');
    const script = `const { findPrism } = await import(${JSON.stringify(PRISM_MODULE)}); console.log(String(findPrism(${JSON.stringify(elsewhere)})));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
    expect(child.stdout.trim()).toBe('null');
    expect(PRISM_MISSING).toContain('npm install --save-dev @stoplight/prism-cli@5.16.0');
    expect(PRISM_MISSING).toContain('--engine prism');
  });
});
