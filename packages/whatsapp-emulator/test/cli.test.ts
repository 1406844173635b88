import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/engagekit-whatsapp-emulator.js', import.meta.url));
let child: ChildProcess | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

function start(args: string[], env: Record<string, string> = {}) {
  child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c) => (output += c));
  child.stderr?.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const check = () => {
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    };
    child?.stdout?.on('data', check);
    void exited.then((code) => reject(new Error(`exited ${code} before its ready line:\n${output}`)));
  });
  // A run that is meant to fail never reaches its ready line: that is no unhandled rejection.
  ready.catch(() => {});
  return { ready, exited, output: () => output };
}

describe('engagekit-whatsapp-emulator', () => {
  it('starts from flags and environment, answers a send, and exits 0 on SIGTERM', async () => {
    const run = start(['--port', '0', '--access-token', 'cli-token', '--accept-any-template'], { WHATSAPP_EMULATOR_PHONE_NUMBER_IDS: '111,222' });
    const url = await run.ready;
    const res = await fetch(`${url}/v21.0/222/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer cli-token', 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: '15550500001', type: 'template', template: { name: 'any', language: { code: 'en' } } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { messages: { id: string }[] }).messages[0]?.id).toMatch(/^wamid\./);
    child?.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('exits 2 naming a bad flag or value', async () => {
    const unknown = start(['--nope']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output()).toContain('Unknown flag --nope');
    const bad = start(['--port', '0'], { WHATSAPP_EMULATOR_MESSAGES_PER_SECOND: '0' });
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain('messagesPerSecond');
  });
});
