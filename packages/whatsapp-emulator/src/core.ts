/**
 * The emulator's behaviour, without HTTP: a send checked and limited as the Cloud API does it, its
 * fate's statuses handed to the outbox, templates created, reviewed and changed, and the settings.
 * Each call returns the answer the HTTP layer writes (a status and a JSON body).
 */
import { randomBytes } from 'node:crypto';
import { planStatuses, refusalFor, ruleFor } from './fates.ts';
import { type GraphError, graphError } from './graph-errors.ts';
import { SlidingWindow, TokenBuckets } from './limits.ts';
import { type Fate, type FateRule, type ResolvedOptions, type Settings, SettingsSchema, type TemplateEvent } from './options.ts';
import { statusPayload, templatePayload } from './payloads.ts';
import { checkSendRequest, parameterCounts, type SendRequest } from './send-request.ts';
import { type EmulatedTemplate, reviewFor, TemplateBook } from './templates.ts';
import { WebhookOutbox } from './webhook-outbox.ts';

/** A message the emulator accepted. */
export interface EmulatedMessage {
  wamid: string;
  phoneNumberId: string;
  /** The recipient as sent, and as WhatsApp ids it (digits only). */
  to: string;
  waId: string;
  template: { name: string; language: string; headerParams: number; bodyParams: number };
  bizOpaqueCallbackData?: string;
  fate: Fate;
  /** When it was accepted: ms since the epoch, with fractions (the throughput window's clock). */
  acceptedAt: number;
  /** The statuses it posts, in the order they leave. */
  statuses: string[];
  request: SendRequest;
  /** The W3C `traceparent` header its send carried, when it carried one (a sender that traces sends it; WhatsApp ignores it). */
  traceparent?: string;
}

/** A send the emulator refused: when, to whom, and its error code. */
export interface RefusedSend {
  at: number;
  phoneNumberId: string;
  to: string | null;
  code: number;
  details: string;
}

/** An answer for the HTTP layer. */
export interface Answer {
  status: number;
  body: unknown;
}

const fromError = (e: GraphError): Answer => ({ status: e.status, body: e.body });
const now = () => performance.timeOrigin + performance.now();

/** The emulator's state and rules. */
export class EmulatorCore {
  settings: Settings;
  fates: FateRule[];
  templates: TemplateBook;
  readonly messages: EmulatedMessage[] = [];
  readonly refused: RefusedSend[] = [];
  readonly outbox: WebhookOutbox;
  readonly #throughput: SlidingWindow;
  readonly #pairs: TokenBuckets;
  /** How many sends each refusal rule refused, by `${rule index}:${wa id}` (for a rule's `times`). */
  readonly #refusedBy = new Map<string, number>();

  readonly options: ResolvedOptions;

  constructor(options: ResolvedOptions) {
    this.options = options;
    this.settings = pickSettings(options);
    this.fates = [...options.fates];
    this.templates = new TemplateBook(options.templates);
    this.outbox = new WebhookOutbox({
      settings: () => this.settings,
      appSecret: options.appSecret,
      verifyToken: options.verifyToken,
      timeoutMs: options.webhookTimeoutMs,
      historyLimit: options.historyLimit,
    });
    this.#throughput = new SlidingWindow(this.settings.messagesPerSecond);
    this.#pairs = new TokenBuckets(this.settings.pairRate);
  }

  /** Whether `authorization` carries the access token; else error 190. */
  authorize(authorization: string | undefined): GraphError | null {
    const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
    if (token === this.options.accessToken) return null;
    return graphError(
      190,
      token
        ? 'Error validating access token: the token is not the one this emulator was given'
        : 'An access token is required: send Authorization: Bearer <token>',
    );
  }

  /** `POST /{version}/{phone-number-id}/messages`; `traceparent` is the request's header of that name, kept with the message. */
  send(phoneNumberId: string, body: unknown, traceparent?: string): Answer {
    if (!this.options.phoneNumberIds.includes(phoneNumberId)) {
      return fromError(
        graphError(
          100,
          `Unsupported post request. Object with ID '${phoneNumberId}' does not exist: this emulator's phone number ids are ${this.options.phoneNumberIds.join(', ')}`,
          { subcode: 33 },
        ),
      );
    }
    const checked = checkSendRequest(body);
    const to = typeof (body as { to?: unknown })?.to === 'string' ? (body as { to: string }).to : null;
    if (!checked.ok) return this.#refuse(phoneNumberId, to, checked.error);
    const { request } = checked;
    const template = this.#templateFor(request);
    if ('error' in template) return this.#refuse(phoneNumberId, to, template.error);
    const at = now();
    const waId = request.to.replace(/\D/g, '');
    const refusal = refusalFor(this.settings.refusals, request.to, (index) => this.#refusedBy.get(`${index}:${waId}`) ?? 0);
    if (refusal) {
      const key = `${refusal.index}:${waId}`;
      this.#refusedBy.set(key, (this.#refusedBy.get(key) ?? 0) + 1);
      return this.#refuse(phoneNumberId, to, graphError(refusal.rule.code, `refused by the refusal rule ${refusal.index} for ${waId}`));
    }
    if (!this.#throughput.take(phoneNumberId, at)) {
      return this.#refuse(
        phoneNumberId,
        to,
        graphError(
          130429,
          `Message failed to send because there were more than ${this.settings.messagesPerSecond} messages from phone number ${phoneNumberId} in one second`,
        ),
      );
    }
    if (!this.#pairs.take(`${phoneNumberId}:${waId}`, at)) {
      return this.#refuse(
        phoneNumberId,
        to,
        graphError(131056, `Message failed to send because there were too many messages sent from this phone number to ${waId} in a short period of time`),
      );
    }
    const message = this.#accept(phoneNumberId, request, template.template, waId, at);
    if (traceparent !== undefined) message.traceparent = traceparent;
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: request.to, wa_id: waId }], messages: [{ id: message.wamid }] } };
  }

  #refuse(phoneNumberId: string, to: string | null, error: GraphError): Answer {
    this.refused.push({ at: now(), phoneNumberId, to, code: error.body.error.code, details: error.body.error.error_data.details });
    if (this.refused.length > this.options.historyLimit) this.refused.shift();
    return fromError(error);
  }

  /** The template a send names, or its error: 132001 unknown, 132015 paused, 132016 disabled, 132000 a parameter count off. */
  #templateFor(request: SendRequest): { template: EmulatedTemplate } | { error: GraphError } {
    const { name } = request.template;
    const language = request.template.language.code;
    const counts = parameterCounts(request);
    if (this.settings.acceptAnyTemplate && !this.templates.find(name, language)) {
      return {
        template: {
          id: '0',
          name,
          language,
          category: 'MARKETING',
          status: 'APPROVED',
          headerParams: counts.header,
          bodyParams: counts.body,
          components: [],
          reason: 'NONE',
        },
      };
    }
    const template = this.templates.find(name, language);
    if (!template || !['APPROVED', 'FLAGGED', 'PAUSED', 'DISABLED'].includes(template.status)) {
      const why = template ? `is ${template.status}, not APPROVED` : 'does not exist';
      return { error: graphError(132001, `template name (${name}) ${why} in ${language}`) };
    }
    if (template.status === 'PAUSED') return { error: graphError(132015, `template (${name}) in ${language} is paused: ${template.reason}`) };
    if (template.status === 'DISABLED') return { error: graphError(132016, `template (${name}) in ${language} is disabled: ${template.reason}`) };
    for (const [part, sent, expected] of [
      ['header', counts.header, template.headerParams],
      ['body', counts.body, template.bodyParams],
    ] as const) {
      if (sent !== expected) {
        return { error: graphError(132000, `${part}: number of localizable_params (${sent}) does not match the expected number of params (${expected})`) };
      }
    }
    return { template };
  }

  #accept(phoneNumberId: string, request: SendRequest, template: EmulatedTemplate, waId: string, at: number): EmulatedMessage {
    const wamid = `wamid.${Buffer.concat([Buffer.from(`${waId}:`), randomBytes(12)]).toString('base64')}`;
    const rule = ruleFor(this.fates, request.to);
    const planned = planStatuses(rule, this.settings);
    const message: EmulatedMessage = {
      wamid,
      phoneNumberId,
      to: request.to,
      waId,
      template: { name: template.name, language: template.language, headerParams: template.headerParams, bodyParams: template.bodyParams },
      ...(request.biz_opaque_callback_data === undefined ? {} : { bizOpaqueCallbackData: request.biz_opaque_callback_data }),
      fate: rule.fate,
      acceptedAt: at,
      statuses: [...planned].sort((a, b) => a.delayMs - b.delayMs).map((s) => s.status),
      request,
    };
    this.messages.push(message);
    if (this.messages.length > this.options.historyLimit) this.messages.shift();
    for (const s of planned) {
      const payload = statusPayload({
        wabaId: this.options.wabaId,
        phoneNumberId,
        displayPhoneNumber: this.options.displayPhoneNumber,
        wamid,
        recipientId: waId,
        status: s.status,
        ...(message.bizOpaqueCallbackData === undefined ? {} : { bizOpaqueCallbackData: message.bizOpaqueCallbackData }),
        category: template.category,
        ...(s.failure ? { failure: s.failure } : {}),
      });
      this.outbox.schedule(payload, s.delayMs, { field: 'messages', wamid, status: s.status }, { lane: wamid });
    }
    return message;
  }

  /** `POST /{version}/{waba-id}/message_templates`: a PENDING template, reviewed by the review rules after `templateReviewMs`. */
  createTemplate(body: unknown): Answer {
    const created = this.templates.create(body);
    if (!created.ok) return fromError(created.error);
    const { template } = created;
    const review = reviewFor(this.settings.templateReview, template.name);
    if (review.event !== 'PENDING') this.setTemplateStatus(template, review.event, review.reason, this.settings.templateReviewMs);
    return { status: 200, body: { id: template.id, status: 'PENDING', category: template.category } };
  }

  /** Sets a template's status after `event` (after `delayMs`) and posts its `message_template_status_update` webhook. */
  setTemplateStatus(template: EmulatedTemplate, event: TemplateEvent, reason: string | undefined, delayMs = 0): void {
    const payload = templatePayload({
      wabaId: this.options.wabaId,
      event,
      id: template.id,
      name: template.name,
      language: template.language,
      reason: reason ?? 'NONE',
    });
    const apply = () => this.templates.apply(template, event, reason);
    if (delayMs === 0) apply();
    this.outbox.schedule(
      payload,
      delayMs,
      { field: 'message_template_status_update', template: template.name, event },
      { lane: `template:${template.id}`, ...(delayMs === 0 ? {} : { onDue: apply }) },
    );
  }

  /** `GET /{version}/{waba-id}/message_templates`. */
  listTemplates(): Answer {
    const data = this.templates
      .list()
      .map((t) => ({ id: t.id, name: t.name, language: t.language, status: t.status, category: t.category, components: t.components }));
    return { status: 200, body: { data, paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } } } };
  }

  /** Applies checked settings; the limits follow. */
  configure(settings: Partial<Settings>): void {
    this.settings = { ...this.settings, ...settings };
    if (settings.messagesPerSecond !== undefined) this.#throughput.setLimit(settings.messagesPerSecond);
    if (settings.pairRate !== undefined) this.#pairs.setRate(settings.pairRate);
    if (settings.refusals !== undefined) this.#refusedBy.clear();
    this.outbox.settingsChanged();
  }

  /** Back to the options it started with: no messages, no webhooks, the seeded templates, fresh limits. */
  reset(): void {
    this.outbox.reset();
    this.messages.length = 0;
    this.refused.length = 0;
    this.settings = pickSettings(this.options);
    this.fates = [...this.options.fates];
    this.templates = new TemplateBook(this.options.templates);
    this.#throughput.setLimit(this.settings.messagesPerSecond);
    this.#throughput.reset();
    this.#pairs.setRate(this.settings.pairRate);
    this.#refusedBy.clear();
  }
}

/** The names of the settings that may change while it runs. */
const SETTING_NAMES = Object.keys(SettingsSchema.shape) as (keyof Settings)[];

/** The settings part of the options. */
function pickSettings(o: ResolvedOptions): Settings {
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, o[name]])) as Settings;
}
