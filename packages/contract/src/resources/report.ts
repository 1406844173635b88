import * as z from 'zod';
import { Id, Timestamp } from '../primitives.ts';
import { CampaignStatus } from './campaign.ts';

const count = (example: number, description?: string) =>
  z
    .int()
    .min(0)
    .meta(description ? { example, description } : { example });

/** Message outcomes as a funnel: `sent` includes delivered and read, `delivered` includes read. */
export const MessageCounts = z
  .object({
    total: count(120, 'Messages recorded.'),
    sent: count(115, 'Accepted by the channel (includes delivered and read).'),
    delivered: count(110, 'Delivered to the phone (includes read).'),
    read: count(80, 'Read by the customer.'),
    failed: count(5, 'Not sent.'),
  })
  .meta({ id: 'MessageCounts' });
export type MessageCounts = z.infer<typeof MessageCounts>;

const byStatusShape = Object.fromEntries(CampaignStatus.options.map((s) => [s, count(0)])) as Record<CampaignStatus, ReturnType<typeof count>>;

export const CampaignReportRow = z
  .object({
    id: Id.meta({ example: 'cmp_01JD4Z8Q3T5V' }),
    name: z.string().meta({ example: 'temp3' }),
    status: CampaignStatus,
    runs: count(1, 'Times it has run.'),
    last_run_at: Timestamp.nullable(),
    messages: MessageCounts,
    failed_by_code: z
      .array(
        z
          .object({
            code: z.int().nullable().meta({
              description: 'The provider’s error code (WhatsApp’s), or null for failures without one (no answer, an interrupted hand-off).',
              example: 131026,
            }),
            count: count(3),
          })
          .meta({ id: 'FailureCount' }),
      )
      .meta({ description: 'Failed messages by the provider’s error code: the 20 most frequent, most frequent first.' }),
  })
  .meta({ id: 'CampaignReportRow' });

/** The company report: campaigns, message outcomes, customers and orders. */
export const Report = z
  .object({
    campaigns: z
      .object({ total: count(3), by_status: z.object(byStatusShape).meta({ id: 'CampaignStatusCounts', description: 'Campaigns in each status.' }) })
      .meta({ id: 'CampaignCounts', description: 'The company’s campaigns.' }),
    messages: MessageCounts,
    customers: z.object({ total: count(40) }).meta({ id: 'CustomerCounts', description: 'The company’s customers.' }),
    orders: z
      .object({ total: count(57), amount: z.number().min(0).meta({ description: 'Sum of the order totals.', example: 85432.5 }) })
      .meta({ id: 'OrderTotals', description: 'The company’s orders.' }),
    campaigns_detail: z.array(CampaignReportRow).meta({ description: 'The newest campaigns, up to 100, newest first, with their message outcomes.' }),
    generated_at: Timestamp,
  })
  .meta({ id: 'Report' });
export type Report = z.infer<typeof Report>;
