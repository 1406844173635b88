/**
 * The message templates the emulator knows: seeded ones and those created through
 * `POST /{version}/{waba-id}/message_templates`, their status, and how a new one is reviewed.
 */
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { type GraphError, graphError } from './graph-errors.ts';
import type { ReviewRule, SeedTemplate, TemplateEvent } from './options.ts';
import { SeedTemplateSchema } from './options.ts';

/** A template's status, as the Cloud API names it. */
export type TemplateStatus = 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED' | 'FLAGGED';

/** A template the emulator knows. */
export interface EmulatedTemplate {
  id: string;
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  status: TemplateStatus;
  /** Text parameters of its header and its body. */
  headerParams: number;
  bodyParams: number;
  /** The components it was created with (empty for a seeded one). */
  components: unknown[];
  /** Why it was rejected, paused or disabled; `NONE` otherwise. */
  reason: string;
}

/** The built-in review rules, after the caller's: `reject_` names are REJECTED, `pending_` stay PENDING, others APPROVED. */
export const DEFAULT_REVIEW_RULES: readonly ReviewRule[] = [
  { match: { prefix: 'reject_' }, event: 'REJECTED', reason: 'INVALID_FORMAT' },
  { match: { prefix: 'pending_' }, event: 'PENDING' },
  { match: '*', event: 'APPROVED' },
];

/** The body of a template creation. */
export const CreateTemplateSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9_]{1,512}$/, 'must be 1 to 512 lowercase letters, digits and underscores'),
    language: z.string().min(2).max(15),
    category: z.enum(['MARKETING', 'UTILITY', 'AUTHENTICATION']),
    components: z
      .array(z.object({ type: z.string().min(1), text: z.string().optional() }).loose())
      .min(1)
      .max(20),
  })
  .loose();

/** How many `{{n}}` placeholders a component's text holds. */
function placeholders(components: { type: string; text?: string | undefined }[], type: string): number {
  const text = components.find((c) => c.type.toUpperCase() === type)?.text ?? '';
  return new Set(text.match(/\{\{\s*[\w]+\s*\}\}/g) ?? []).size;
}

/** What a status-changing event leaves as the status: REINSTATED is APPROVED again. */
export function statusAfter(event: TemplateEvent): TemplateStatus {
  return event === 'REINSTATED' ? 'APPROVED' : event;
}

/** The templates, keyed by name and language. */
export class TemplateBook {
  readonly #templates = new Map<string, EmulatedTemplate>();

  constructor(seeds: readonly SeedTemplate[]) {
    for (const seed of seeds) {
      const t = SeedTemplateSchema.parse(seed);
      this.#put({ ...t, id: newId(), components: [], reason: 'NONE' });
    }
  }

  #put(template: EmulatedTemplate): void {
    this.#templates.set(`${template.name}\u0000${template.language}`, template);
  }

  /** The template of `name` in `language`, if known. */
  find(name: string, language: string): EmulatedTemplate | undefined {
    return this.#templates.get(`${name}\u0000${language}`);
  }

  /** Every template, oldest first. */
  list(): EmulatedTemplate[] {
    return [...this.#templates.values()];
  }

  /** A new PENDING template from a creation body, or error 100 naming the bad field (or the name taken). */
  create(body: unknown): { ok: true; template: EmulatedTemplate } | { ok: false; error: GraphError } {
    const parsed = CreateTemplateSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0] as z.core.$ZodIssue;
      return { ok: false, error: graphError(100, `Param ${issue.path.map(String).join('.') || 'body'} is invalid: ${issue.message}`) };
    }
    const { name, language, category, components } = parsed.data;
    if (this.find(name, language)) {
      return { ok: false, error: graphError(100, `Message template "${name}" already exists in ${language}`, { subcode: 2388024 }) };
    }
    const template: EmulatedTemplate = {
      id: newId(),
      name,
      language,
      category,
      status: 'PENDING',
      headerParams: placeholders(components, 'HEADER'),
      bodyParams: placeholders(components, 'BODY'),
      components,
      reason: 'NONE',
    };
    this.#put(template);
    return { ok: true, template };
  }

  /** Sets a template's status after `event`, with its reason. */
  apply(template: EmulatedTemplate, event: TemplateEvent, reason: string | undefined): void {
    template.status = statusAfter(event);
    template.reason = reason ?? 'NONE';
  }
}

/** The first review rule (the caller's, then the built-in ones) that takes `name`. */
export function reviewFor(rules: readonly ReviewRule[], name: string): ReviewRule {
  return [...rules, ...DEFAULT_REVIEW_RULES].find(
    (rule) => rule.match === '*' || ('prefix' in rule.match ? name.startsWith(rule.match.prefix) : name === rule.match.name),
  ) as ReviewRule;
}

/** A numeric id, as Meta's are. */
function newId(): string {
  return `${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}`;
}
