import * as z from 'zod';
import { Id, Timestamp, text } from '../primitives.ts';

/** The body of the template operation. Phone numbers keep the public docs' free form here. */
export const SubmitTemplateBody = z
  .object({
    template_name: text(512, 'The WhatsApp template name.', 'savetem'),
    phone_number: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ()-]{6,20}$/, 'must be a phone number of 6 to 20 digits, optionally starting with "+"')
      .meta({ description: 'The sending phone number, as the messaging account knows it.', example: '6363978748' }),
    wam_id: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(256, 'must be at most 256 characters')
      .optional()
      .meta({ description: 'The WhatsApp message-template id; without it the template is recorded as failed.', example: 'wamkskdfj-lkskfdkskf' }),
  })
  .meta({ id: 'TemplateSubmission' });
export type SubmitTemplateBody = z.input<typeof SubmitTemplateBody>;

/**
 * Where a template stands: `submitted` (given with a `wam_id`, awaiting WhatsApp's review, which it
 * calls PENDING), then as WhatsApp reports it: `approved`, `rejected`, `paused`, `disabled`; `failed`
 * when it was submitted without a `wam_id`.
 */
export const TemplateStatus = z.enum(['submitted', 'approved', 'rejected', 'paused', 'disabled', 'failed']).meta({
  id: 'TemplateStatus',
  description:
    '`submitted`: given with a `wam_id`, in review at WhatsApp (its PENDING). `approved`, `rejected`, `paused`, `disabled`: as WhatsApp last reported it (a reinstated template is `approved` again). `failed`: submitted without a `wam_id`.',
  example: 'submitted',
});
export type TemplateStatus = z.infer<typeof TemplateStatus>;

/** A template as stored, keyed by (template_name, phone_number), with its status at WhatsApp. */
export const Template = z
  .object({
    id: Id.meta({ example: 'tpl_01JD4Z8Q3T5V' }),
    template_name: z.string().meta({ example: 'savetem' }),
    phone_number: z.string().meta({ example: '6363978748' }),
    wam_id: z.string().nullable().meta({ example: 'wamkskdfj-lkskfdkskf' }),
    status: TemplateStatus,
    reason: z.string().nullable().meta({
      description:
        'Set when the template `failed` (why), when WhatsApp rejected it (its reason) and when WhatsApp flagged it (its reason, the status unchanged); null otherwise.',
      example: null,
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Template' });
export type Template = z.infer<typeof Template>;
