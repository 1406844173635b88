/**
 * What a test or an operator does to a running emulator, checked: read what it received, set fate rules
 * and settings, change a template's status, reset, wait for quiet. The in-process handle and the
 * `/__emulator` control API both call these; bad input is an `EmulatorOptionsError` naming the field.
 */
import { z } from 'zod';
import type { EmulatedMessage, EmulatorCore, RefusedSend } from './core.ts';
import {
  EmulatorOptionsError,
  type FateRule,
  FateRuleSchema,
  issueLines,
  type Settings,
  SettingsSchema,
  type TemplateEvent,
  TemplateEventSchema,
} from './options.ts';
import type { EmulatedTemplate } from './templates.ts';
import type { WebhookPost } from './webhook-outbox.ts';

/** Everything the emulator holds, as the control API's `GET /__emulator` shows it. */
export interface EmulatorState {
  settings: Settings;
  fates: FateRule[];
  messages: EmulatedMessage[];
  refused: RefusedSend[];
  webhooks: WebhookPost[];
  templates: EmulatedTemplate[];
}

/** A template status change, as `setTemplateStatus` takes it. */
export const TemplateStatusChangeSchema = z
  .object({ name: z.string().min(1), language: z.string().min(2).optional(), event: TemplateEventSchema, reason: z.string().min(1).max(200).optional() })
  .strict();

/** How long `quiet` waits, default 10 s. */
export const QuietSchema = z.object({ timeoutMs: z.number().int().min(0).max(600_000).default(10_000) }).strict();

function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new EmulatorOptionsError(`Invalid ${what}: ${issueLines(parsed.error).join('; ')}`);
  return parsed.data;
}

/** The checked operations on an emulator's core. */
export class EmulatorControls {
  private readonly core: EmulatorCore;

  constructor(core: EmulatorCore) {
    this.core = core;
  }

  state(): EmulatorState {
    return {
      settings: this.core.settings,
      fates: this.core.fates,
      messages: this.core.messages,
      refused: this.core.refused,
      webhooks: this.core.outbox.posts(),
      templates: this.core.templates.list(),
    };
  }

  /** Replaces the caller's fate rules (the built-in ones stay after them). */
  setFates(rules: unknown): void {
    this.core.fates = parse(z.array(FateRuleSchema).max(1000), rules, 'fate rules');
  }

  /** Changes settings; only the fields given. A new callback URL is verified when first posted to. */
  configure(settings: unknown): void {
    this.core.configure(parse(SettingsSchema.partial(), settings, 'settings'));
  }

  /**
   * Changes settings, a callback URL among them verified first: all are checked, then the handshake
   * made, and only then any applied, so a refused call changes nothing.
   */
  async configureVerified(settings: unknown): Promise<void> {
    const checked = parse(SettingsSchema.partial(), settings ?? {}, 'settings');
    if (checked.callbackUrl) {
      const handshake = await this.core.outbox.verify(checked.callbackUrl);
      if (!handshake.ok) throw new EmulatorOptionsError(`callbackUrl ${checked.callbackUrl} failed its verification: ${handshake.problem}`);
    }
    this.core.configure(checked);
  }

  /** Sets the callback URL after its `hub.mode=subscribe` handshake; rejects, naming what it answered, if the handshake fails. */
  setCallbackUrl(url: string | null): Promise<void> {
    return this.configureVerified({ callbackUrl: url });
  }

  /** Changes a template's status (PAUSED, DISABLED, FLAGGED, REINSTATED, ...) and posts its update webhook. */
  setTemplateStatus(change: unknown): EmulatedTemplate {
    const { name, language, event, reason } = parse(TemplateStatusChangeSchema, change, 'template status change');
    const matches = this.core.templates.list().filter((t) => t.name === name && (language === undefined || t.language === language));
    if (matches.length !== 1) {
      const problem = matches.length === 0 ? 'no template has that name' : `it exists in ${matches.map((t) => t.language).join(', ')}: give language`;
      throw new EmulatorOptionsError(`Invalid template status change: name ${JSON.stringify(name)}${language ? ` in ${language}` : ''}: ${problem}`);
    }
    const template = matches[0] as EmulatedTemplate;
    this.core.setTemplateStatus(template, event as TemplateEvent, reason);
    return template;
  }

  /** Resolves true once no webhook waits or is in flight, false when `timeoutMs` (default 10 s) passes first. */
  quiet(options: unknown = {}): Promise<boolean> {
    return this.core.outbox.quiet(parse(QuietSchema, options, 'quiet options').timeoutMs);
  }

  reset(): void {
    this.core.reset();
  }
}
