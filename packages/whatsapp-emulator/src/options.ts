/**
 * The emulator's settings: their schemas (zod), which name the field of a bad value, and their
 * defaults. `createWhatsAppEmulator` takes them all; the control API and `configure()` change the
 * ones that may change while it runs.
 */
import { z } from 'zod';

const digits = z.string().regex(/^\d{1,20}$/, 'must be 1 to 20 digits');
const ms = z.number().int().min(0).max(86_400_000);

/** What becomes of a message: its statuses, or a failure with a Cloud API error code. */
export const FateSchema = z.union([
  z.enum(['read', 'delivered', 'sent', 'read-without-delivered']),
  z.object({ failed: z.number().int().positive(), title: z.string().min(1).max(200).optional() }).strict(),
]);
/** What becomes of a message. `read`: sent, delivered, read. `read-without-delivered`: sent, read. `{ failed }`: one failed status. */
export type Fate = z.infer<typeof FateSchema>;

/** How statuses leave: in reverse order, each twice, or later than their delays. */
export const DisorderSchema = z
  .object({
    /** The statuses of a message posted in reverse order (read before delivered before sent). */
    outOfOrder: z.boolean().optional(),
    /** Each status posted twice. */
    duplicates: z.boolean().optional(),
    /** Added to every status's delay, in milliseconds. */
    lateMs: ms.optional(),
  })
  .strict();
/** How statuses leave: reversed, doubled, or late. */
export type Disorder = z.infer<typeof DisorderSchema>;

/** Which recipients a rule takes: `'*'`, `{ suffix }` of the recipient's digits, or `{ to }`. */
export const RecipientMatchSchema = z.union([
  z.literal('*'),
  z.object({ suffix: digits }).strict(),
  z.object({ to: z.string().regex(/^\+?\d{1,20}$/, 'must be a phone number: digits, with or without a leading +') }).strict(),
]);
/** Which recipients a rule takes. */
export type RecipientMatch = z.infer<typeof RecipientMatchSchema>;

/** A fate rule: which recipients it takes, and what becomes of their messages. */
export const FateRuleSchema = z
  .object({
    match: RecipientMatchSchema,
    fate: FateSchema,
  })
  .extend(DisorderSchema.shape)
  .strict();
/** A fate rule: `match` (`'*'`, `{ suffix }` of the recipient's digits, or `{ to }`), its `fate`, and optional disorder. */
export type FateRule = z.infer<typeof FateRuleSchema>;

/**
 * A refusal rule: sends to the recipients it takes are refused at once with a Cloud API error `code`
 * (the answer's HTTP status is Meta's for that code), before the limits count them. `share` picks that
 * part of the recipients (fixed by each recipient's number, default all); `times` refuses only that many
 * sends to each recipient, then lets the next through (default: every one).
 */
export const RefusalRuleSchema = z
  .object({
    match: RecipientMatchSchema,
    code: z.number().int().min(0).max(10_000_000),
    share: z.number().min(0).max(1).optional(),
    times: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();
/** A refusal rule: `match`, the error `code`, and optionally the `share` of recipients and the `times` each is refused. */
export type RefusalRule = z.infer<typeof RefusalRuleSchema>;

/** The events of a template's status webhook. */
export const TemplateEventSchema = z.enum(['APPROVED', 'REJECTED', 'PENDING', 'PAUSED', 'DISABLED', 'FLAGGED', 'REINSTATED']);
/** An event of a template's status webhook. */
export type TemplateEvent = z.infer<typeof TemplateEventSchema>;

/** A review rule: which new templates it takes (`'*'`, `{ prefix }` or `{ name }`) and how they come out. */
export const ReviewRuleSchema = z
  .object({
    match: z.union([z.literal('*'), z.object({ prefix: z.string().min(1) }).strict(), z.object({ name: z.string().min(1) }).strict()]),
    event: z.enum(['APPROVED', 'REJECTED', 'PENDING']),
    reason: z.string().min(1).max(200).optional(),
  })
  .strict();
/** How a template created through the API is reviewed. */
export type ReviewRule = z.infer<typeof ReviewRuleSchema>;

/** A template the emulator knows from the start. */
export const SeedTemplateSchema = z
  .object({
    name: z.string().min(1).max(512),
    language: z.string().min(2).max(15).default('en_US'),
    status: z.enum(['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED', 'FLAGGED']).default('APPROVED'),
    category: z.enum(['MARKETING', 'UTILITY', 'AUTHENTICATION']).default('MARKETING'),
    /** How many text parameters its header takes. */
    headerParams: z.number().int().min(0).max(1).default(0),
    /** How many text parameters its body takes. */
    bodyParams: z.number().int().min(0).max(100).default(0),
  })
  .strict();
/** A template the emulator knows from the start. */
export type SeedTemplate = z.input<typeof SeedTemplateSchema>;

/** The pair rate: one message to a recipient per `intervalMs`, with `burst` borrowed ahead (a token bucket). */
export const PairRateSchema = z.object({ intervalMs: z.number().int().min(1).max(3_600_000), burst: z.number().int().min(1).max(1000) }).strict();

/** The settings that may change while the emulator runs (`configure()`, `PATCH /__emulator/settings`). */
export const SettingsSchema = z
  .object({
    /** Where status and template webhooks go; null for nowhere. */
    callbackUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).nullable(),
    /** Delay of the `sent` status after the send, in ms. */
    sentMs: ms,
    /** Delay of the `delivered` status (and of a failure) after the send, in ms. */
    deliveredMs: ms,
    /** Delay of the `read` status after the send, in ms. */
    readMs: ms,
    /** Delay of a new template's review webhook, in ms. */
    templateReviewMs: ms,
    /** Delay of the answer to every Cloud API request, in ms: a slow provider. A message is accepted before the wait, so a client that gives up meanwhile has still sent it. */
    answerMs: ms,
    /** Messages accepted per phone number in any sliding one-second window; more answer 130429. */
    messagesPerSecond: z.number().int().min(1).max(100_000),
    pairRate: PairRateSchema,
    /** Rules that refuse sends with an error code, checked before the limits (transient faults, a revoked token, a restricted account...). */
    refusals: z.array(RefusalRuleSchema).max(1000),
    /** Waits before each retry of a webhook post that was not answered 200, in ms; after the last, it is dropped. */
    retrySchedule: z.array(ms).max(20),
    /** Disorder for every message (a fate rule's own disorder adds to it). */
    disorder: DisorderSchema,
    /** Review rules for templates created through the API, before the built-in ones. */
    templateReview: z.array(ReviewRuleSchema).max(100),
    /** Any template name and language is taken as APPROVED with whatever parameters it brings (for load tests). */
    acceptAnyTemplate: z.boolean(),
    /** How many webhook posts may be in flight at once. */
    webhookConcurrency: z.number().int().min(1).max(1000),
    /** While true, webhooks that fall due wait; set it false to let them all go (as many at once as `webhookConcurrency`). */
    holdWebhooks: z.boolean(),
  })
  .strict();
/** The settings that may change while the emulator runs. */
export type Settings = z.infer<typeof SettingsSchema>;

/** Every option of `createWhatsAppEmulator`. */
export const EmulatorOptionsSchema = SettingsSchema.partial()
  .extend({
    /** Interface to listen on, default 127.0.0.1. */
    host: z.string().min(1).default('127.0.0.1'),
    /** Port, default 0 (any free one). */
    port: z.number().int().min(0).max(65_535).default(0),
    /** The bearer token a send must carry. */
    accessToken: z.string().min(1).default('emulator-access-token'),
    /** The app secret that signs webhooks (`X-Hub-Signature-256`). */
    appSecret: z.string().min(1).default('emulator-app-secret'),
    /** The verify token of the `hub.mode=subscribe` handshake. */
    verifyToken: z.string().min(1).default('emulator-verify-token'),
    /** The phone number ids that may send; the first is the default. */
    phoneNumberIds: z.array(digits).min(1).max(100).default(['100000000000001']),
    /** The display phone number in webhooks' metadata. */
    displayPhoneNumber: digits.default('15550000000'),
    /** The WhatsApp Business Account id (the templates' path and the webhooks' entry id). */
    wabaId: digits.default('200000000000001'),
    /** Rules that choose each message's fate, before the built-in ones (README table). */
    fates: z.array(FateRuleSchema).max(1000).default([]),
    /** Templates known from the start. */
    templates: z.array(SeedTemplateSchema).max(10_000).default([]),
    /** How many accepted messages, refused sends and finished webhook posts each to keep, the oldest forgotten first. */
    historyLimit: z.number().int().min(1).max(10_000_000).default(10_000),
    /** Timeout of one webhook post, in ms. */
    webhookTimeoutMs: z.number().int().min(1).max(120_000).default(5_000),
  })
  .strict();
/** Every option of `createWhatsAppEmulator`; all have defaults. */
export type WhatsAppEmulatorOptions = z.input<typeof EmulatorOptionsSchema>;
/** The options once checked, with defaults. */
export type ResolvedOptions = z.output<typeof EmulatorOptionsSchema> & Settings;

/** Defaults of the settings that may change. */
export const DEFAULT_SETTINGS: Settings = {
  callbackUrl: null,
  sentMs: 10,
  deliveredMs: 50,
  readMs: 100,
  templateReviewMs: 50,
  answerMs: 0,
  messagesPerSecond: 80,
  pairRate: { intervalMs: 6_000, burst: 5 },
  refusals: [],
  retrySchedule: [100, 500, 2_000, 5_000],
  disorder: {},
  templateReview: [],
  acceptAnyTemplate: false,
  webhookConcurrency: 16,
  holdWebhooks: false,
};

/** Thrown for options that fail their schema: the message names each field and its problem. */
export class EmulatorOptionsError extends TypeError {
  override name = 'EmulatorOptionsError';
}

/** Lines naming each field of `error` and what is wrong with it, e.g. `pairRate.burst: Too small: expected number to be >=1`. */
export function issueLines(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(the whole value)'}: ${issue.message}`);
}

/** The options checked, with defaults, or an `EmulatorOptionsError` naming each bad field. */
export function resolveOptions(input: WhatsAppEmulatorOptions = {}): ResolvedOptions {
  const parsed = EmulatorOptionsSchema.safeParse(input);
  if (!parsed.success) throw new EmulatorOptionsError(`Invalid WhatsApp emulator options:\n${issueLines(parsed.error).join('\n')}`);
  return { ...DEFAULT_SETTINGS, ...parsed.data } as ResolvedOptions;
}
