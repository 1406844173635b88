/** Vitest global setup: `@engagekit/sdk`, which the webhook tests verify deliveries with, resolves to its build; build it when stale. */
import { ensureBuilt } from '../../sdk/test/ensure-built.ts';

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
