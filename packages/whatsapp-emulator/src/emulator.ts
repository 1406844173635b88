/** `createWhatsAppEmulator`: the emulator on a loopback HTTP server, and the handle a test drives it with. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmulatorControls, type EmulatorState } from './controls.ts';
import { type EmulatedMessage, EmulatorCore, type RefusedSend } from './core.ts';
import { createHandler } from './http.ts';
import { type FateRule, resolveOptions, type Settings, type TemplateEvent, type WhatsAppEmulatorOptions } from './options.ts';
import type { EmulatedTemplate } from './templates.ts';
import type { WebhookPost } from './webhook-outbox.ts';

/** A running emulator. */
export interface WhatsAppEmulator {
  /** Its origin, e.g. `http://127.0.0.1:41234`; the control API is under `${url}/__emulator`. */
  url: string;
  /** The Graph API base to give a sender (the reference server's `WHATSAPP_API_URL`): `${url}/v21.0`. */
  apiUrl: string;
  /** The first phone number id, the access token, the app secret, the verify token and the WABA id it uses. */
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  wabaId: string;
  /** Everything it holds. */
  state(): EmulatorState;
  /** The messages it accepted, in order. */
  messages(): EmulatedMessage[];
  /** The sends it refused, with their error codes. */
  refused(): RefusedSend[];
  /** The webhooks it made, with their attempts and answers. */
  webhooks(): WebhookPost[];
  templates(): EmulatedTemplate[];
  /** Replaces the fate rules (the built-in ones stay after them). */
  setFates(rules: FateRule[]): void;
  /** Changes settings (not the callback URL: `setCallbackUrl`). */
  configure(settings: Partial<Omit<Settings, 'callbackUrl'>>): void;
  /** Sets where webhooks go, after the `hub.mode=subscribe` handshake; null for nowhere. */
  setCallbackUrl(url: string | null): Promise<void>;
  /** Changes a template's status and posts its update webhook. */
  setTemplateStatus(change: { name: string; language?: string; event: TemplateEvent; reason?: string }): EmulatedTemplate;
  /** Back to the options it started with. */
  reset(): void;
  /** Resolves once no webhook waits or is in flight; rejects after `timeoutMs` (default 10 s). */
  quiet(options?: { timeoutMs?: number }): Promise<void>;
  /** Stops its timers and its server. */
  close(): Promise<void>;
}

/**
 * Starts a WhatsApp Cloud API emulator on loopback.
 *
 * @example
 * const wa = await createWhatsAppEmulator({ callbackUrl: 'http://127.0.0.1:3000/whatsapp/webhook' });
 * // WHATSAPP_API_URL=wa.apiUrl, WHATSAPP_ACCESS_TOKEN=wa.accessToken, WHATSAPP_PHONE_NUMBER_ID=wa.phoneNumberId
 * await wa.quiet();
 * await wa.close();
 */
export async function createWhatsAppEmulator(options: WhatsAppEmulatorOptions = {}): Promise<WhatsAppEmulator> {
  const resolved = resolveOptions(options);
  const core = new EmulatorCore(resolved);
  const controls = new EmulatorControls(core);
  const server = createServer(createHandler(core, controls));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => resolve());
  });
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  const url = `http://${host}:${port}`;
  return {
    url,
    apiUrl: `${url}/v21.0`,
    phoneNumberId: resolved.phoneNumberIds[0] as string,
    accessToken: resolved.accessToken,
    appSecret: resolved.appSecret,
    verifyToken: resolved.verifyToken,
    wabaId: resolved.wabaId,
    state: () => controls.state(),
    messages: () => core.messages,
    refused: () => core.refused,
    webhooks: () => core.outbox.posts(),
    templates: () => core.templates.list(),
    setFates: (rules) => controls.setFates(rules),
    configure: (settings) => controls.configure(settings),
    setCallbackUrl: (callbackUrl) => controls.setCallbackUrl(callbackUrl),
    setTemplateStatus: (change) => controls.setTemplateStatus(change),
    reset: () => controls.reset(),
    async quiet(quietOptions = {}) {
      if (!(await controls.quiet(quietOptions))) {
        throw new Error(
          `The WhatsApp emulator was not quiet after ${quietOptions.timeoutMs ?? 10_000} ms: ${core.outbox.pending()} webhooks still wait or are in flight`,
        );
      }
    },
    async close() {
      core.outbox.reset();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
