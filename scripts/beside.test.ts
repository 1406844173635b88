import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { Beside } from './beside.ts';

const node = process.execPath;

function collector() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => {
    text += String(d);
  });
  return { out, text: () => text };
}

/** Whether `pid` still runs: one that has exited but waits for its parent (init, here) to reap it, state Z in /proc, has ended. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.[0] !== 'Z';
  } catch {
    return true;
  }
};

describe('Beside', () => {
  it('holds what the command prints until it joins, sends the go, then prints as it comes', async () => {
    const { out, text } = collector();
    const script = `
      console.log('first half'); console.error('a warning');
      process.stdin.once('data', (d) => { console.log('go was ' + String(d).trim()); process.exit(0); });`;
    const job = new Beside('two halves', node, ['-e', script], { out, waitsForGo: true });
    await vi.waitFor(() => expect(job.printed()).toContain('first half'), { timeout: 20_000, interval: 20 });
    expect(text()).toBe('');
    await job.join();
    expect(text()).toMatch(/^\n> two halves \(beside the checks above; for \d+ s so far\)\n/);
    expect(text()).toContain('first half\n');
    expect(text()).toContain('a warning\n');
    expect(text().indexOf('go was go')).toBeGreaterThan(text().indexOf('first half'));
  });

  it('says how long a command that ended before it joined took', async () => {
    const { out, text } = collector();
    const job = new Beside('quick', node, ['-e', "console.log('done')"], { out });
    expect(await job.exited).toBe(0);
    await job.join();
    expect(text()).toMatch(/^\n> quick \(beside the checks above; took \d+ s\)\ndone\n$/);
  });

  it('reports a failure before it joins at once, with what it printed', async () => {
    const { out, text } = collector();
    const failed = new Promise<[number | null, string]>((resolve) => {
      new Beside('fails', node, ['-e', "console.log('about to fail'); process.exit(3)"], {
        out,
        onEarlyFailure: (_job, code, printed) => resolve([code, printed]),
      });
    });
    expect(await failed).toEqual([3, 'about to fail\n']);
    expect(text()).toBe('');
  });

  it('rejects a join when the command fails, after printing what it held', async () => {
    const { out, text } = collector();
    let early = false;
    const job = new Beside('fails late', node, ['-e', "process.stdin.once('data', () => { console.log('no'); process.exit(2); })"], {
      out,
      waitsForGo: true,
      onEarlyFailure: () => {
        early = true;
      },
    });
    await expect(job.join()).rejects.toThrow('fails late failed (exit 2)');
    expect(text()).toMatch(/^\n> fails late \(beside the checks above; for \d+ s so far\)\n/);
    expect(text()).toContain('no\n');
    expect(early).toBe(false);
  });

  it('stop() ends the command and what it started', async () => {
    const { out } = collector();
    const script = `
      const child = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      console.log(child.pid); setInterval(() => {}, 1000);`;
    const job = new Beside('long', node, ['-e', script], { out });
    await vi.waitFor(() => expect(job.printed()).toMatch(/\d+\n/), { timeout: 20_000, interval: 20 });
    const grandchild = Number(job.printed().trim());
    expect(alive(grandchild)).toBe(true);
    job.stop();
    expect(await job.exited).toBeNull();
    await vi.waitFor(() => expect(alive(grandchild)).toBe(false), { timeout: 20_000, interval: 50 });
  });
});
