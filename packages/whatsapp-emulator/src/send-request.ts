/**
 * The body of `POST /{version}/{phone-number-id}/messages`, checked as the Cloud API checks a template
 * send: a missing or invalid field is error 100 naming the field.
 */
import { z } from 'zod';
import { type GraphError, graphError } from './graph-errors.ts';

const textParameter = z.object({ type: z.literal('text'), text: z.string().min(1).max(32_768) }).loose();
const anyParameter = z.object({ type: z.string().min(1) }).loose();

const component = z.discriminatedUnion('type', [
  z.object({ type: z.literal('header'), parameters: z.array(anyParameter).max(1) }).loose(),
  z.object({ type: z.literal('body'), parameters: z.array(textParameter).max(100) }).loose(),
  z.object({ type: z.literal('button'), sub_type: z.string().min(1), index: z.union([z.string(), z.number()]) }).loose(),
  z
    .object({
      type: z.literal('carousel'),
      cards: z.array(z.object({ card_index: z.number().int().min(0).max(9), components: z.array(z.object({ type: z.string() }).loose()) }).loose()).max(10),
    })
    .loose(),
]);

/** A template send, as the Cloud API takes it. */
export const SendRequestSchema = z
  .object({
    messaging_product: z.literal('whatsapp'),
    recipient_type: z.literal('individual').optional(),
    to: z.string().regex(/^\+?[\d\s().-]{5,30}$/, 'must be a phone number'),
    type: z.literal('template'),
    template: z
      .object({
        name: z.string().min(1).max(512),
        language: z.object({ code: z.string().min(2).max(15), policy: z.literal('deterministic').optional() }).loose(),
        components: z.array(component).max(20).optional(),
      })
      .loose(),
    biz_opaque_callback_data: z.string().max(512).optional(),
  })
  .loose();
/** A checked template send. */
export type SendRequest = z.infer<typeof SendRequestSchema>;

/** A field path as the Graph API writes it: `template['language']['code']`. */
function graphPath(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return `${head ?? ''}${rest.map((p) => `['${p}']`).join('')}`;
}

/** The value at `path` inside `value`, or undefined. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** The body checked, or error 100 naming its first bad field. */
export function checkSendRequest(body: unknown): { ok: true; request: SendRequest } | { ok: false; error: GraphError } {
  if (body && typeof body === 'object' && 'type' in body && body.type !== 'template' && typeof body.type === 'string') {
    return { ok: false, error: graphError(100, `Param type must be 'template': the emulator sends template messages only, not '${body.type}'`) };
  }
  const parsed = SendRequestSchema.safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const field = graphPath(issue.path);
  const missing = valueAt(body, issue.path) === undefined;
  const details = missing ? `The parameter ${field} is required.` : `Param ${field} is invalid: ${issue.message}`;
  return { ok: false, error: graphError(100, details) };
}

/** How many text parameters a send gives its header and its body. */
export function parameterCounts(request: SendRequest): { header: number; body: number } {
  const components = request.template.components ?? [];
  const count = (type: 'header' | 'body') =>
    components
      .filter((c) => c.type === type)
      .reduce((n, c) => n + ('parameters' in c ? (c.parameters as { type: string }[]) : []).filter((p) => p.type === 'text').length, 0);
  return { header: count('header'), body: count('body') };
}
