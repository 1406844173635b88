import * as z from 'zod';
import { Timestamp } from '../primitives.ts';

const count = (example: number) => z.int().min(0).meta({ example });

/** What a sync changed. */
export const SyncResult = z
  .object({
    customers: z
      .object({ total: count(40), created: count(3), updated: count(1), removed: count(0) })
      .meta({ id: 'SyncedCustomers', description: 'Customers after the sync, and how many it created, updated and removed.' }),
    campaigns: z
      .object({ total: count(3), updated: count(1) })
      .meta({ id: 'SyncedCampaigns', description: 'Campaigns after the sync, and how many changed status.' }),
    synced_at: Timestamp,
  })
  .meta({ id: 'SyncResult', description: 'What the sync re-derived and changed.' });
export type SyncResult = z.infer<typeof SyncResult>;

/** The sync answer carries `status` beside `success`, as the public docs show. */
export const SyncResponse = z
  .object({
    success: z.literal(true),
    status: z.literal(true),
    message: z.string().meta({ example: 'Sync Complete' }),
    data: SyncResult,
  })
  .meta({ id: 'SyncEnvelope' });
