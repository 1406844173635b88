import * as z from 'zod';
import { CompanyUuid, DateTime, Id, IsoDate, TimeOfDay, Timestamp, text } from '../primitives.ts';

const VariableName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, "_", "." or "-"')
  .meta({ example: 'first_name' });

/** How many variables a template's header and body may declare. */
const MAX_HEADER_VARIABLES = 10;
const MAX_BODY_VARIABLES = 50;
/** `variables` holds a value for each declared variable and no other, so it never needs more keys than these. */
const MAX_VARIABLE_VALUES = MAX_HEADER_VARIABLES + MAX_BODY_VARIABLES;

/** At most this many unknown keys are named in a message: the rest are counted. */
const NAMED_KEYS = 5;

/** One card of a carousel template. */
export const CarouselCard = z
  .object({
    card_image_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).meta({ example: 'https://example.com/image1.jpg' }),
    card_body_variables: z
      .array(z.string().max(1024, 'must be at most 1024 characters'))
      .max(10, 'must have at most 10 values')
      .default([])
      .meta({ example: ['10%'] }),
  })
  .meta({ id: 'CarouselCard', outputId: 'CampaignCarouselCard' });

/**
 * What a campaign sends: the template, the variables it declares and their values.
 * Values may name customer fields (`{{customer.firstName}}`), rendered for each customer.
 */
export const TemplatePayload = z
  .object({
    template_name: text(512, 'The WhatsApp template name.', 'carousel_offer'),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a language code such as en or en_US')
      .default('en')
      .meta({ example: 'en' }),
    header_variable: z
      .array(VariableName)
      .max(MAX_HEADER_VARIABLES, `must have at most ${MAX_HEADER_VARIABLES} variables`)
      .default([])
      .meta({ description: 'Variables the template header declares.', example: [] }),
    body_variable: z
      .array(VariableName)
      .max(MAX_BODY_VARIABLES, `must have at most ${MAX_BODY_VARIABLES} variables`)
      .default([])
      .meta({ description: 'Variables the template body declares.', example: ['first_name'] }),
    variables: z
      .record(z.string(), z.string().max(1024, 'must be at most 1024 characters'))
      // Checked before the values are compared with what is declared: a body of 75,000 keys gets this one issue.
      .refine((v) => Object.keys(v).length <= MAX_VARIABLE_VALUES, {
        message: `must hold at most ${MAX_VARIABLE_VALUES} values, one for each variable header_variable and body_variable declare`,
        abort: true,
      })
      .default({})
      .meta({
        maxProperties: MAX_VARIABLE_VALUES,
        description:
          'A value for every declared variable, and only for those. A value may use `{{customer.firstName}}`, `{{customer.lastName}}`, `{{customer.name}}` or `{{customer.phoneNumber}}`.',
        example: { first_name: '{{customer.firstName}}' },
      }),
    cards: z.array(CarouselCard).max(10, 'must have at most 10 cards').optional().meta({ description: 'Carousel cards, for carousel templates.' }),
  })
  .superRefine((p, ctx) => {
    const declared = new Set([...p.header_variable, ...p.body_variable]);
    for (const name of declared) {
      if (!(name in p.variables)) ctx.addIssue({ code: 'custom', path: ['variables', name], message: `the template declares "${name}" but no value is given` });
    }
    for (const name of Object.keys(p.variables)) {
      if (!declared.has(name))
        ctx.addIssue({ code: 'custom', path: ['variables', name], message: `"${name}" is not declared in header_variable or body_variable` });
    }
  })
  .meta({
    id: 'TemplatePayload',
    // As a campaign answers it, with every default filled in.
    outputId: 'StoredTemplatePayload',
    description: 'The template a campaign sends, with its variables and their values.',
  });
export type TemplatePayload = z.infer<typeof TemplatePayload>;

const Times = z.array(TimeOfDay).min(1, 'must list at least one time').max(48, 'must list at most 48 times');

/** The first NAMED_KEYS of `keys`, and how many more there are: a message stays short however many were sent. */
function namedKeys(keys: readonly string[]): string {
  const named = keys.slice(0, NAMED_KEYS).join(', ');
  return keys.length > NAMED_KEYS ? `${named} and ${keys.length - NAMED_KEYS} more` : named;
}

/** Weekday -> times of day (24h `HH:MM`) at which a recurring campaign runs. */
export const Days = z
  .strictObject(
    {
      monday: Times.optional(),
      tuesday: Times.optional(),
      wednesday: Times.optional(),
      thursday: Times.optional(),
      friday: Times.optional(),
      saturday: Times.optional(),
      sunday: Times.optional(),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown day: ${namedKeys(iss.keys)} (use monday..sunday)` : undefined) },
  )
  .meta({ id: 'Days', description: 'Weekday to times of day (24h HH:MM).', example: { monday: ['09:00', '18:30'], friday: ['10:00'] } });
export type Days = z.infer<typeof Days>;

export const ScheduleType = z.enum(['once', 'recurring'], 'must be "once" or "recurring"').meta({ id: 'ScheduleType', example: 'once' });
export type ScheduleType = z.infer<typeof ScheduleType>;

export const CampaignStatus = z
  .enum(['scheduled', 'running', 'completed', 'paused', 'failed', 'cancelled'])
  .meta({ id: 'CampaignStatus', description: 'scheduled -> running -> completed; paused, failed or cancelled where they apply.', example: 'scheduled' });
export type CampaignStatus = z.infer<typeof CampaignStatus>;
export const campaignStatuses = CampaignStatus.options;

/** The body of createCampaign. */
export const CreateCampaignBody = z
  .object({
    name: text(200, 'Campaign name, unique within the company.', 'temp3'),
    schedule_type: ScheduleType,
    schedule: DateTime.meta({ description: 'When a `once` campaign runs; when a `recurring` one starts.' }),
    days: Days.optional().meta({ description: 'Required for `recurring`: the weekdays and times it runs.' }),
    template_payload: TemplatePayload,
  })
  .refine((c) => c.schedule_type !== 'recurring' || Object.values(c.days ?? {}).some((t) => t && t.length > 0), {
    path: ['days'],
    message: 'is required for a recurring campaign: give at least one weekday and time',
    // Not on a body that is no object (it has been refused already), nor when days itself is malformed: it has said why.
    when: (payload) => typeof payload.value === 'object' && payload.value !== null && !payload.issues.some((i) => i.path?.[0] === 'days'),
  })
  .meta({ id: 'NewCampaign' });
export type CreateCampaignBody = z.input<typeof CreateCampaignBody>;

/** A broadcast campaign. */
export const Campaign = z
  .object({
    id: Id.meta({ example: 'cmp_01JD4Z8Q3T5V' }),
    uuid: CompanyUuid,
    name: z.string().meta({ example: 'temp3' }),
    status: CampaignStatus,
    pause_reason: z.string().nullable().meta({
      description:
        'Why the campaign is paused, null unless it is: `paused by the company` after pauseCampaign; a provider error’s code and template when the provider refused the template.',
      example: null,
    }),
    failure_reason: z.string().nullable().meta({
      description:
        'Why the campaign failed, null unless it did: the provider’s error code when a configuration problem (the access token, a permission, the account, payment, the sending number) ended its run, or `every message of its run failed`.',
      example: null,
    }),
    schedule_type: ScheduleType,
    schedule: Timestamp,
    days: Days.nullable(),
    template_payload: TemplatePayload,
    startDate: IsoDate.meta({ description: 'The date of `schedule` (UTC).' }),
    endDate: IsoDate.nullable().meta({ description: 'The date the campaign ended, null while it has not.', example: null }),
    next_run_at: Timestamp.nullable().meta({ description: 'When it runs next, null when it will not.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Campaign', description: 'A broadcast campaign.' });
export type Campaign = z.infer<typeof Campaign>;

const CampaignId = z
  .string()
  .min(1, 'Campaign ID is required.')
  .max(64, 'must be at most 64 characters')
  .meta({ description: 'The campaign id.', example: 'cmp_01JD4Z8Q3T5V' });

export const CampaignIdParams = z.object({ id: CampaignId });

/** The path of an operation on one campaign of the company `{uuid}`: `/api/v2/companies/{uuid}/campaigns/{id}/...`. */
export const CompanyCampaignParams = z.object({ uuid: CompanyUuid, id: CampaignId });
