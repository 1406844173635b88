/**
 * Campaign runs. When a campaign falls due, any instance starts its run: it plans the run as chunks
 * of the company's customers, found by key (the store's `startDueRuns`), and sets the campaign
 * `running`. Every instance then claims chunks under its lease and runs them: the template, rendered
 * for each customer, sent through the channel, each message recorded before it is sent, so whoever
 * records it is the only one who sends it. The instance that finishes the last chunk ends the run.
 *
 * After a crash, a dead instance's chunks are taken over once its lease runs out: a message it had
 * handed to a provider outside the process (`sending`) is marked failed rather than sent twice; every
 * other message it had recorded is sent.
 *
 * A send the provider refuses goes by the refusal's class (`judgeAnswer`): sent again later, the
 * campaign paused, the run failed, or the message failed. A message to a recipient the provider
 * number messaged less than its pair gap ago waits its turn (`takePairTurns`). A chunk with messages
 * waiting is handed back rather than finished: until their next attempt, or until the campaign's resume.
 */
import type { Clock } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import type { Leases } from '../leases.ts';
import type { Logger } from '../logger.ts';
import type { RuntimeObserver } from '../observer.ts';
import { sendsChunks } from '../rules/campaign-runs.ts';
import type { Store } from '../store/ports.ts';
import {
  type CampaignRecord,
  type ClaimedChunk,
  type CompanyRecord,
  type CustomerRecord,
  exclusive,
  type MessageDeferral,
  type MessageOutcome,
  type MessageRecord,
} from '../store/types.ts';
import { pauseCampaign } from './campaign-control.ts';
import { endRunIfDone, failRun, runLock } from './campaign-run-end.ts';
import type { ChannelAdapter, SendResult } from './channel.ts';
import { applyChannelStatuses, foldStatuses } from './channel-statuses.ts';
import { renderTemplate } from './render.ts';
import { classifySendFailure, failureMeaning, retryDelayMs, type SendFailure } from './send-failures.ts';
import { givePairTurnsBack, realWait, sendPaced, takePairTurns, type Wait } from './send-pace.ts';

/** What running chunks needs: the store, the channel, the time and ids, and the instance's leases. */
export interface RunContext {
  store: Store;
  channel: ChannelAdapter;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  leases: Leases;
  /** True once the instance is stopping: a chunk under way hands itself back. */
  stopping: () => boolean;
  /** How a run waits for its channel's pace (`sendPaced`). Default: real timers. */
  wait?: Wait;
  /** How a send the provider refused for now is tried again (`RETRY_DEFAULTS`). */
  retry?: RetrySettings;
  /** Hears of messages recorded, pauses and runs ended (the server's metrics). */
  observer?: RuntimeObserver;
}

/** How a send the provider refused for now is tried again: after `baseMs` times 4^n (`retryDelayMs`), up to `maxAttempts` sends in all. */
export interface RetrySettings {
  baseMs: number;
  maxAttempts: number;
}

/** WHATSAPP_RETRY_BASE_MS and WHATSAPP_MAX_ATTEMPTS by default. */
export const RETRY_DEFAULTS: RetrySettings = { baseMs: 1000, maxAttempts: 5 };

const INTERRUPTED = 'interrupted: the run stopped while the provider had it; not sent again';
const PAIR_WAIT = 'waiting: the number had a message less than the pair gap ago';

/** Starts the runs of up to `limit` due campaigns, `chunkSize` customers to a chunk. */
export function startDueRuns(run: RunContext, limit: number, chunkSize: number): Promise<CampaignRecord[]> {
  return run.store.startDueRuns({ now: run.clock.now().toISOString(), limit, chunkSize, newId: run.ids.newId });
}

/** When the next campaign falls due after `after`; null when none is waiting. */
export async function nextCampaignDue(store: Store, after: Date): Promise<Date | null> {
  const at = await store.nextCampaignDue(after.toISOString());
  return at === null ? null : new Date(at);
}

/** `items` in consecutive slices of at most `size` (size >= 1; Infinity gives one slice). */
export function slices<T>(items: readonly T[], size: number): T[][] {
  const step = Math.max(1, Math.floor(Math.min(size, items.length || 1)));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += step) out.push(items.slice(i, i + step));
  return out;
}

/** A message to send: its record (new, or recorded earlier and never handed over) and whom it goes to. */
interface Outbound {
  record: MessageRecord;
  customer: CustomerRecord;
}

/** A new message of the chunk's run to `customer`, pending, with the template rendered for them. */
function newMessage(run: RunContext, chunk: ClaimedChunk, customer: CustomerRecord, now: string): MessageRecord {
  return {
    id: run.ids.newId('msg'),
    company_uuid: chunk.company_uuid,
    campaign_id: chunk.campaign_id,
    customer_id: customer.id,
    phone_number: customer.phoneNumber,
    run_key: chunk.run_key,
    status: 'pending',
    error: null,
    error_code: null,
    provider_message_id: null,
    variables: renderTemplate(chunk.campaign.template_payload, customer).variables,
    attempts: 0,
    next_attempt_at: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * What the chunk's customers need: a message of the run recorded for each who has none, the messages
 * recorded before (a crash) and never handed over sent again, and those a provider had marked failed.
 */
async function resume(
  run: RunContext,
  chunk: ClaimedChunk,
  customers: CustomerRecord[],
): Promise<{ toSend: Outbound[]; toRecord: CustomerRecord[]; later: string | null }> {
  const earlier = await run.store.listRunMessages(
    chunk.campaign_id,
    chunk.run_key,
    customers.map((c) => c.id),
  );
  const byCustomer = new Map(earlier.map((m) => [m.customer_id, m]));
  const interrupted: MessageOutcome[] = earlier
    .filter((m) => m.status === 'sending')
    .map((m) => ({ id: m.id, status: 'failed', error: INTERRUPTED, error_code: null, provider_message_id: null }));
  await run.store.updateMessages(interrupted, run.clock.now().toISOString());
  const now = run.clock.now().getTime();
  const toSend: Outbound[] = [];
  const toRecord: CustomerRecord[] = [];
  let later: string | null = null;
  for (const customer of customers) {
    const m = byCustomer.get(customer.id);
    if (!m) toRecord.push(customer);
    else if (m.status !== 'pending') continue;
    else if (m.next_attempt_at === null || Date.parse(m.next_attempt_at) <= now) toSend.push({ record: m, customer });
    else later = earliest(later, m.next_attempt_at);
  }
  return { toSend, toRecord, later };
}

/** The earlier of two times (ISO), either of which may be null. */
const earliest = (a: string | null, b: string | null): string | null => (a === null ? b : b === null || Date.parse(a) <= Date.parse(b) ? a : b);

/**
 * Sends messages through the channel (marked `sending` first when the channel hands them outside), at
 * its pace (`sendPaced`), and records their outcomes. Each send starts as soon as its slot is taken,
 * with nothing between, so the provider counts it within the slot's margin.
 */
async function send(run: RunContext, chunk: ClaimedChunk, outbound: Outbound[]): Promise<MessageDeferral[]> {
  const { store, channel, clock } = run;
  const { messages, waiting, pairAt } = await pairTurns(run, outbound);
  if (channel.external ?? true) {
    await store.updateMessages(
      messages.map(({ record }) => ({ id: record.id, status: 'sending', error: null, error_code: null, provider_message_id: null })),
      clock.now().toISOString(),
    );
  }
  const judged = await sendPaced({ store, clock, wait: run.wait ?? realWait }, channel.pace, messages.length, async (first, n) =>
    messages.slice(first, first + n).map((message) => sendOne(run, chunk, message)),
  );
  const refused = messages.filter((_, i) => judged[i]?.refused).map((m) => m.customer.phoneNumber);
  await givePairTurnsBack(run, channel.pace, refused, pairAt);
  const now = clock.now();
  const outcomes = judged.flatMap((j) => ('outcome' in j ? [j.outcome] : []));
  const deferrals = [...waiting, ...judged.flatMap((j) => ('deferral' in j ? [j.deferral] : []))];
  const folded = foldStatuses(outcomes, channel.takeStatuses?.(now) ?? []);
  await store.updateMessages(folded.outcomes, now.toISOString());
  await store.deferMessages(deferrals, now.toISOString());
  if (folded.rest.length > 0) await applyChannelStatuses(store, folded.rest, run.ids.newId, now.toISOString());
  run.observer?.messagesRecorded?.(folded.outcomes, deferrals);
  // The first refusal that stops the campaign names its reason; the chunk hands itself back at its next slice.
  const [pause] = judged.flatMap((j) => ('pause' in j && j.pause ? [j.pause] : []));
  if (pause) {
    await pauseCampaign(store, { uuid: chunk.company_uuid }, chunk.campaign_id, pause, now);
    run.logger.warn({ campaign: chunk.campaign_id, reason: pause }, 'campaign paused: the provider refuses its messages');
    run.observer?.campaignPaused?.();
  }
  const [failure] = judged.flatMap((j) => (j.failRun ? [j.failRun] : []));
  if (failure && (await failRun(store, chunk.campaign, failure, now))) {
    run.logger.error({ campaign: chunk.campaign_id, runKey: chunk.run_key, reason: failure }, 'campaign run failed: the provider refuses the configuration');
    run.observer?.runEnded?.('failed');
  }
  return deferrals;
}

/**
 * The messages whose recipients have their pair turn now (`takePairTurns`), to send; the others wait,
 * `pending`, due at their turn (an attempt not counted).
 */
async function pairTurns(run: RunContext, outbound: Outbound[]): Promise<{ messages: Outbound[]; waiting: MessageDeferral[]; pairAt: string }> {
  const { turns, at } = await takePairTurns(
    run,
    run.channel.pace,
    outbound.map((m) => m.customer.phoneNumber),
  );
  const messages: Outbound[] = [];
  const waiting: MessageDeferral[] = [];
  outbound.forEach((m, i) => {
    const turn = turns[i] ?? null;
    if (turn === null) messages.push(m);
    else waiting.push({ id: m.record.id, attempts: m.record.attempts, next_attempt_at: turn, error: PAIR_WAIT, error_code: null });
  });
  return { messages, waiting, pairAt: at };
}

/** Sends one message, and what the channel's answer makes of it (`judgeAnswer`). */
async function sendOne(run: RunContext, chunk: ClaimedChunk, { record, customer }: Outbound): Promise<Judged> {
  const result = await run.channel
    .send({
      to: customer.phoneNumber,
      template: renderTemplate(chunk.campaign.template_payload, customer),
      key: `${chunk.campaign_id}:${chunk.run_key}:${customer.id}`,
      messageId: record.id,
      campaignId: chunk.campaign_id,
      runKey: chunk.run_key,
      customerId: customer.id,
    })
    .catch((e: Error): SendResult => ({ status: 'failed', providerMessageId: null, error: `the channel failed: ${e.message}` }));
  return judgeAnswer(record, result, chunk.campaign.template_payload.template_name, run.retry ?? RETRY_DEFAULTS, run.clock.now());
}

/**
 * What a send's answer makes of its message: an outcome to record, or a wait (`pending` again); the
 * campaign's pause, or the run's failure, it calls for, with the reason; and whether the provider
 * refused it (`refused`: it counted no message, so the recipient's pair turn is given back).
 */
type Judged = ({ outcome: MessageOutcome } | { deferral: MessageDeferral }) & { pause?: string; failRun?: string; refused?: boolean };

/**
 * What the channel's answer makes of a message, by the class of a refusal (`classifySendFailure`,
 * `domain/send-failures.ts`):
 * - `retry`: pending again, due after the backoff (`retryDelayMs`), until `maxAttempts` sends were
 *   refused; then failed with the last code.
 * - `pause-campaign`: pending again with no due time, and the campaign paused with the code and the
 *   template as its reason; the resume sends it.
 * - `interrupted` (the request may have reached the provider unanswered): failed as a crash's is,
 *   without the provider's word, so its later status corrects it; not sent again.
 * - `fail-run`: failed with the code, and the run failed with the code and what it is about as its reason.
 * - `fail-message`: failed with the code.
 */
function judgeAnswer(record: MessageRecord, result: SendResult, templateName: string, retry: RetrySettings, now: Date): Judged {
  const { id } = record;
  const failed: MessageOutcome = { id, status: 'failed', error: result.error, error_code: result.errorCode ?? null, provider_message_id: null };
  if (result.status !== 'failed' || !result.failure) {
    return { outcome: { id, status: result.status, error: result.error, error_code: result.errorCode ?? null, provider_message_id: result.providerMessageId } };
  }
  const { failure } = result;
  // The provider answered it, or it never left: no message to the recipient was counted.
  return { ...judgeRefusal(record, result, failure, failed, templateName, retry, now), refused: failure.httpStatus !== null || !failure.mayHaveReached };
}

/** `judgeAnswer` of a failed send (`failure` is the result's), by the class of its refusal; `failed` is the message failed with the answer's code. */
function judgeRefusal(
  record: MessageRecord,
  result: SendResult,
  failure: SendFailure,
  failed: MessageOutcome,
  templateName: string,
  retry: RetrySettings,
  now: Date,
): Judged {
  const { id } = record;
  const refusal = { error: result.error, error_code: result.errorCode ?? null };
  switch (classifySendFailure(failure)) {
    case 'interrupted':
      return { outcome: { ...failed, error: `interrupted: ${result.error ?? 'no answer'}; not sent again`, error_code: null } };
    case 'retry': {
      const attempts = record.attempts + 1;
      if (attempts >= retry.maxAttempts) return { outcome: { ...failed, error: `${result.error ?? 'refused'} (given up after ${attempts} attempts)` } };
      const next = new Date(now.getTime() + retryDelayMs(attempts + 1, retry.baseMs, result.retryAfterMs ?? null)).toISOString();
      return { deferral: { id, attempts, next_attempt_at: next, ...refusal } };
    }
    case 'pause-campaign':
      return {
        deferral: { id, attempts: record.attempts, next_attempt_at: null, ...refusal },
        pause: `WhatsApp error ${result.errorCode ?? 'without a code'} on template ${templateName}: ${result.error ?? 'refused'}`,
      };
    case 'fail-run': {
      const code = result.errorCode as number;
      return { outcome: failed, failRun: `WhatsApp error ${code} (${failureMeaning(code)}): ${result.error ?? 'refused'}` };
    }
    default:
      return { outcome: failed };
  }
}

/**
 * Applies the statuses a channel that reports them itself (the simulated one) has due now: those that
 * fall due between slices (a slice's own, with no delay, are written with its outcomes).
 */
export async function applyDueStatuses(run: Pick<RunContext, 'store' | 'channel' | 'clock' | 'ids'>): Promise<void> {
  const now = run.clock.now();
  const due = run.channel.takeStatuses?.(now) ?? [];
  if (due.length > 0) await applyChannelStatuses(run.store, due, run.ids.newId, now.toISOString());
}

/** Records new messages of the run to `customers`; the ones this instance recorded (another may have recorded some), to send. */
async function record(run: RunContext, chunk: ClaimedChunk, customers: CustomerRecord[]): Promise<Outbound[]> {
  const now = run.clock.now().toISOString();
  const fresh = customers.map((customer) => ({ record: newMessage(run, chunk, customer, now), customer }));
  const inserted = await run.store.insertMessages(fresh.map((m) => m.record));
  return fresh.filter((m) => inserted.has(m.record.id));
}

/**
 * Before each slice: whether the chunk goes on, or is handed back (the instance is stopping, or its
 * campaign is not running any more: paused or cancelled) or lost (its lease ran out).
 */
async function mayGoOn(run: RunContext, chunk: ClaimedChunk): Promise<'go' | 'released' | 'lost'> {
  const { store, leases } = run;
  if (run.stopping()) {
    await store.releaseChunk(chunk.id, leases.claimToken);
    return 'released';
  }
  if (await store.holdsChunk(chunk.id, leases.claimToken, run.clock.now().toISOString())) return 'go';
  // Not held: its campaign stopped, or its lease ran out. A stopped campaign's chunk is handed back,
  // its claim cleared, so a resume's run claims it at once; its recorded messages wait, pending.
  const campaign = await store.getCampaign(chunk.company_uuid, chunk.campaign_id);
  if (campaign === null || sendsChunks(campaign)) return 'lost';
  await store.releaseChunk(chunk.id, leases.claimToken);
  run.logger.info({ campaign: chunk.campaign_id, chunk: chunk.id, status: campaign.status }, 'campaign chunk handed back: its campaign is not running');
  return 'released';
}

/**
 * Runs a claimed chunk: a message to each of its customers, in slices of the channel's `inFlight`
 * (one write records a slice, one its outcomes). Resolves to `done`, `released` (the instance is
 * stopping, or its campaign was paused or cancelled: handed back undone) or `lost` (its lease ran out
 * and another instance has it).
 */
export async function runChunk(run: RunContext, chunk: ClaimedChunk): Promise<'done' | 'released' | 'lost'> {
  const size = run.channel.inFlight ?? 1;
  const { toSend, toRecord, later } = await resume(run, chunk, await run.store.chunkCustomers(chunk));
  const deferred: MessageDeferral[] = [];
  for (const slice of slices(toSend, size)) {
    const next = await mayGoOn(run, chunk);
    if (next !== 'go') return next;
    deferred.push(...(await send(run, chunk, slice)));
  }
  for (const slice of slices(toRecord, size)) {
    const next = await mayGoOn(run, chunk);
    if (next !== 'go') return next;
    deferred.push(...(await send(run, chunk, await record(run, chunk, slice))));
  }
  // Messages wait: for their campaign's resume (no due time: handed back to be claimed then), or to be
  // sent again (anyone's from the earliest due time). Either way the chunk, and its run, go on.
  if (deferred.some((d) => d.next_attempt_at === null)) {
    await run.store.releaseChunk(chunk.id, run.leases.claimToken);
    return 'released';
  }
  const retryAt = deferred.reduce<string | null>((at, d) => earliest(at, d.next_attempt_at), later);
  if (retryAt !== null) {
    await run.store.releaseChunk(chunk.id, run.leases.claimToken, retryAt);
    return 'released';
  }
  return (await finishChunk(run, chunk)) ? 'done' : 'lost';
}

/**
 * Marks the chunk done and, when it was the run's last, ends the run (in one transaction, the run
 * locked: of two instances finishing the last two chunks at once, the second ends it). False when the
 * chunk's lease was lost.
 */
async function finishChunk(run: RunContext, chunk: ClaimedChunk): Promise<boolean> {
  const { store, clock, logger } = run;
  return store.transaction(async (tx) => {
    await tx.lock([exclusive(runLock(chunk.campaign_id))]);
    if (!(await tx.finishChunk(chunk.id, run.leases.claimToken))) return false;
    const ended = await endRunIfDone(tx, chunk.campaign, clock.now());
    if (ended) logger.info({ campaign: chunk.campaign_id, runKey: chunk.run_key, ...ended }, 'campaign run finished');
    if (ended) run.observer?.runEnded?.(ended.status === 'failed' ? 'failed' : 'completed');
    return true;
  });
}

/**
 * Ends the company's runs whose chunks are all done but which are still `running` (a safety net for
 * the agency's sync: the last chunk's transaction ends its run). Returns how many it ended.
 */
export async function endFinishedRuns(store: Store, company: CompanyRecord, now: Date): Promise<number> {
  let ended = 0;
  for (const campaign of await store.runningCampaigns(company.uuid)) {
    const done = await store.transaction(async (tx) => {
      await tx.lock([exclusive(runLock(campaign.id))]);
      return endRunIfDone(tx, campaign, now);
    });
    if (done) ended++;
  }
  return ended;
}
