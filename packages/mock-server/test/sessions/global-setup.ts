/** Starts one `engagekit-mock` (manual clock, webhooks recorded only) for every file of the project; its URL is `inject('mockUrl')`. */
import type { TestProject } from 'vitest/node';
import { startMockProcess } from '../helpers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const proc = await startMockProcess(['--clock', 'manual', '--webhook-delivery', 'record', '--max-sessions', '40']);
  project.provide('mockUrl', proc.url);
  return async () => {
    await proc.stop();
  };
}
