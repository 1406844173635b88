/**
 * One `engagekit-mock` process for the whole suite (Vitest's globalSetup), and a session of it for
 * each test file: `{url}/__session/{name}` is a mock of its own, so files that run at once never see
 * each other's faults, clock, resets or journal. A partner copies this file as it is.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    engagekitMockUrl: string;
  }
}

/** The bin as npm installs it. Run it, not `npx engagekit-mock`: a signal then reaches the mock itself. */
const BIN = fileURLToPath(new URL('../node_modules/.bin/engagekit-mock', import.meta.url));

/** Vitest's globalSetup: starts the mock on a free port, manual clock, and stops it after the run. */
export default async function setup(project: TestProject) {
  const child: ChildProcess = spawn(BIN, ['--port', '0', '--clock', 'manual'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const ready = /listening on (http:\/\/\S+)/.exec(out);
      if (ready?.[1]) resolve(ready[1]);
    });
    child.once('exit', (code) => reject(new Error(`engagekit-mock exited (${code}) before it was ready:\n${out}`)));
  });
  project.provide('engagekitMockUrl', url);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
}

/** What a test file needs of its session: its base URL (for the SDK), the tokens, and its control API. */
export interface MockSession {
  baseUrl: string;
  company: { uuid: string; company_id: string; token: string };
  adminToken: string;
  /** A control call of this session (`/__mock/...`), its answer's `data`; throws on an error answer. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Ends the session (afterAll); an idle one ends by itself too. */
  end(): Promise<void>;
}

/** The session of the test file at `fileUrl` (`import.meta.url`), named after the file. */
export async function sessionOf(fileUrl: string): Promise<MockSession> {
  const name = basename(fileURLToPath(fileUrl)).replace(/\.test\.[cm]?[jt]s$/, '');
  const baseUrl = `${inject('engagekitMockUrl')}/__session/${name}`;
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/__mock${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const answer = (await res.json()) as { data: T; message: string };
    if (!res.ok) throw new Error(`${method} /__mock${path} answered ${res.status}: ${answer.message}`);
    return answer.data;
  };
  // The session is made by this first request; the tokens are the documented constants, the same in every session.
  const info = await control<{ company: MockSession['company']; adminToken: string }>('GET', '');
  return {
    baseUrl,
    company: info.company,
    adminToken: info.adminToken,
    control,
    end: async () => {
      await fetch(baseUrl, { method: 'DELETE' });
    },
  };
}
