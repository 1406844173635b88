/** Vitest global setup, needed only inside the engagekit repository: `@engagekit/sdk` resolves to its build, so build it when stale. */
import { ensureBuilt } from '../../../packages/sdk/test/ensure-built.ts';

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
