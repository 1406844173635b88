/**
 * The command's settings, read once: flags first, then environment variables, then a JSON config file
 * (`--config`), then the defaults. Every flag and variable is in `USAGE` and the README.
 */
import { readFileSync } from 'node:fs';
import type { WhatsAppEmulatorOptions } from './options.ts';

/** A command line the command cannot run: the message says why; it exits 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

/** Each flag: its environment variable, the option it sets, and how its text becomes the value. */
const FLAGS: Record<string, { env: string; set: (o: Record<string, unknown>, v: string) => void; help: string }> = {
  '--host': { env: 'WHATSAPP_EMULATOR_HOST', set: (o, v) => (o.host = v), help: 'interface to listen on (127.0.0.1)' },
  '--port': { env: 'WHATSAPP_EMULATOR_PORT', set: (o, v) => (o.port = int(v, '--port')), help: 'port, 0 for any free one (4030)' },
  '--access-token': { env: 'WHATSAPP_EMULATOR_ACCESS_TOKEN', set: (o, v) => (o.accessToken = v), help: 'the bearer token sends must carry' },
  '--app-secret': { env: 'WHATSAPP_EMULATOR_APP_SECRET', set: (o, v) => (o.appSecret = v), help: 'signs webhooks (X-Hub-Signature-256)' },
  '--verify-token': { env: 'WHATSAPP_EMULATOR_VERIFY_TOKEN', set: (o, v) => (o.verifyToken = v), help: 'hub.verify_token of the handshake' },
  '--phone-number-ids': {
    env: 'WHATSAPP_EMULATOR_PHONE_NUMBER_IDS',
    set: (o, v) => (o.phoneNumberIds = v.split(',').map((s) => s.trim())),
    help: 'comma-separated phone number ids that may send',
  },
  '--waba-id': { env: 'WHATSAPP_EMULATOR_WABA_ID', set: (o, v) => (o.wabaId = v), help: 'the WhatsApp Business Account id' },
  '--callback-url': { env: 'WHATSAPP_EMULATOR_CALLBACK_URL', set: (o, v) => (o.callbackUrl = v), help: 'where status and template webhooks go' },
  '--sent-ms': { env: 'WHATSAPP_EMULATOR_SENT_MS', set: (o, v) => (o.sentMs = int(v, '--sent-ms')), help: 'delay of `sent` (10)' },
  '--delivered-ms': { env: 'WHATSAPP_EMULATOR_DELIVERED_MS', set: (o, v) => (o.deliveredMs = int(v, '--delivered-ms')), help: 'delay of `delivered` (50)' },
  '--read-ms': { env: 'WHATSAPP_EMULATOR_READ_MS', set: (o, v) => (o.readMs = int(v, '--read-ms')), help: 'delay of `read` (100)' },
  '--template-review-ms': {
    env: 'WHATSAPP_EMULATOR_TEMPLATE_REVIEW_MS',
    set: (o, v) => (o.templateReviewMs = int(v, '--template-review-ms')),
    help: 'delay of a new template review (50)',
  },
  '--answer-ms': { env: 'WHATSAPP_EMULATOR_ANSWER_MS', set: (o, v) => (o.answerMs = int(v, '--answer-ms')), help: 'delay of every Cloud API answer (0)' },
  '--messages-per-second': {
    env: 'WHATSAPP_EMULATOR_MESSAGES_PER_SECOND',
    set: (o, v) => (o.messagesPerSecond = int(v, '--messages-per-second')),
    help: 'throughput per phone number (80)',
  },
  '--pair-interval-ms': {
    env: 'WHATSAPP_EMULATOR_PAIR_INTERVAL_MS',
    set: (o, v) => (o.pairRate = { ...(o.pairRate as object), intervalMs: int(v, '--pair-interval-ms') }),
    help: 'pair rate: one message per recipient per interval (6000)',
  },
  '--pair-burst': {
    env: 'WHATSAPP_EMULATOR_PAIR_BURST',
    set: (o, v) => (o.pairRate = { ...(o.pairRate as object), burst: int(v, '--pair-burst') }),
    help: 'pair rate: messages borrowed ahead (5)',
  },
  '--retry-schedule': {
    env: 'WHATSAPP_EMULATOR_RETRY_SCHEDULE',
    set: (o, v) => (o.retrySchedule = v === '' ? [] : v.split(',').map((s) => int(s.trim(), '--retry-schedule'))),
    help: 'comma-separated ms before each webhook retry (100,500,2000,5000)',
  },
  '--accept-any-template': {
    env: 'WHATSAPP_EMULATOR_ACCEPT_ANY_TEMPLATE',
    set: (o, v) => (o.acceptAnyTemplate = v === '' || v === 'true' || v === '1'),
    help: 'take any template name as APPROVED',
  },
  '--webhook-concurrency': {
    env: 'WHATSAPP_EMULATOR_WEBHOOK_CONCURRENCY',
    set: (o, v) => (o.webhookConcurrency = int(v, '--webhook-concurrency')),
    help: 'webhook posts in flight at once (16)',
  },
};

function int(text: string, flag: string): number {
  if (!/^\d+$/.test(text)) throw new CliUsageError(`${flag} must be a whole number of 0 or more, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** The command's help. */
export const USAGE = [
  'usage: engagekit-whatsapp-emulator [flags]',
  '',
  'An emulator of the WhatsApp Cloud API. Each flag also reads from its environment variable.',
  '  --config <file.json>  WHATSAPP_EMULATOR_CONFIG  options as JSON (templates, fates, templateReview, disorder, ...)',
  ...Object.entries(FLAGS).map(([flag, f]) => `  ${flag.padEnd(22)}${f.env.padEnd(40)}${f.help}`),
  '  --help',
].join('\n');

/** The options of a command line and an environment; `null` for `--help`. */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): WhatsAppEmulatorOptions | null {
  if (argv.includes('--help') || argv.includes('-h')) return null;
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] as string).split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag !== '--config' && !(flag in FLAGS)) throw new CliUsageError(`Unknown flag ${flag}.\n\n${USAGE}`);
    const value = inline ?? (flag === '--accept-any-template' ? 'true' : argv[++i]);
    if (value === undefined) throw new CliUsageError(`${flag} needs a value.\n\n${USAGE}`);
    flags.set(flag, value);
  }
  const options: Record<string, unknown> = { port: 4030, ...readConfig(flags.get('--config') ?? env.WHATSAPP_EMULATOR_CONFIG) };
  for (const [flag, f] of Object.entries(FLAGS)) {
    const fromFlag = flags.get(flag);
    const value = fromFlag ?? env[f.env];
    try {
      if (value !== undefined) f.set(options, value);
    } catch (e) {
      // A bad value from the environment names its variable.
      if (e instanceof CliUsageError && fromFlag === undefined) throw new CliUsageError(e.message.replace(flag, `${f.env} (${flag})`));
      throw e;
    }
  }
  if (options.pairRate) options.pairRate = { intervalMs: 6_000, burst: 5, ...(options.pairRate as object) };
  return options as WhatsAppEmulatorOptions;
}

function readConfig(file: string | undefined): Record<string, unknown> {
  if (!file) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliUsageError(`--config ${file} cannot be read: ${(e as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('it is not a JSON object');
    return parsed as Record<string, unknown>;
  } catch (e) {
    throw new CliUsageError(`--config ${file} is not a JSON object of options: ${(e as Error).message}`);
  }
}
