/**
 * `pnpm start` as a person runs it from a terminal, stopped as a terminal stops it: Ctrl-C signals the
 * whole foreground process group (pnpm, and what it runs), a supervisor sends SIGTERM to pnpm alone.
 * Either way the server drains and the command exits 0, with no "Command failed" from pnpm.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROOT } from './ensure-built.ts';

/** Starts `pnpm start` in a process group of its own, as a terminal's foreground job is. */
function pnpmStart() {
  const dataDir = mkdtempSync(join(tmpdir(), 'engagekit-start-'));
  onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn('pnpm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
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
  const ready = new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`pnpm start printed no ready line in 120 s:\n${out}`)), 120_000);
    child.stdout.on('data', () => {
      if (/listening on http:\/\//.test(out)) {
        clearTimeout(timer);
        ok();
      }
    });
    void exited.then((code) => fail(new Error(`pnpm start exited with ${code} before its ready line:\n${out}`)));
  });
  return { child, ready, exited, output: () => out };
}

describe('pnpm start', () => {
  it('exits 0, with no "Command failed", when Ctrl-C signals its process group', async () => {
    const start = pnpmStart();
    await start.ready;
    process.kill(-(start.child.pid as number), 'SIGINT');
    expect(await start.exited).toBe(0);
    expect(start.output()).not.toMatch(/Command failed|ELIFECYCLE/);
  }, 150_000);

  it('exits 0, with no "Command failed", when a supervisor sends SIGTERM to pnpm', async () => {
    const start = pnpmStart();
    await start.ready;
    start.child.kill('SIGTERM');
    expect(await start.exited).toBe(0);
    expect(start.output()).not.toMatch(/Command failed|ELIFECYCLE/);
  }, 150_000);
});
