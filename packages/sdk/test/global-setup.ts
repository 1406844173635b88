import { ensureBuilt } from './ensure-built.ts';

/** Vitest global setup of the sdk project: a fresh build in dist before any test runs. */
export default async function setup(): Promise<void> {
  await ensureBuilt();
}
