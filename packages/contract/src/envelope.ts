import * as z from 'zod';

/** `{ success: true, message, data }`: the envelope of every successful JSON answer. */
export function success<T extends z.ZodType>(data: T, message: string, id: string) {
  return z
    .object({
      success: z.literal(true),
      message: z.string().meta({ example: message }),
      data,
    })
    .meta({ id });
}

/** Page numbers of a page-numbered list (getCampaignData and the admin lists). */
export const Pagination = z
  .object({
    total: z.int().min(0).meta({ description: 'Items in the whole list.', example: 100 }),
    page: z.int().min(1).meta({ description: 'This page, from 1.', example: 1 }),
    limit: z.int().min(1).max(100).meta({ description: 'Items a page.', example: 10 }),
    totalPages: z.int().min(0).meta({ description: 'Pages in the whole list.', example: 10 }),
  })
  .meta({ id: 'Pagination', description: 'Where this page sits in the list.' });
export type Pagination = z.infer<typeof Pagination>;

/** Previous and next page numbers of getCustomers (null at either end). */
export const Paging = z
  .object({
    before: z.int().min(1).nullable().meta({ description: 'The previous page number, null on the first page.', example: 1 }),
    after: z.int().min(1).nullable().meta({ description: 'The next page number, null on the last page.', example: 3 }),
  })
  .meta({ id: 'Paging', description: 'Previous and next page numbers.' });
export type Paging = z.infer<typeof Paging>;

/** `page` and `limit` query parameters: page >= 1 (default 1), limit 1..100 (default 10). */
export const PageQuery = z.object({
  page: z.coerce
    .number('must be a whole number >= 1')
    .int('must be a whole number >= 1')
    .min(1, 'must be >= 1')
    .max(1_000_000_000, 'must be <= 1000000000')
    .default(1)
    .meta({ description: 'Page number, from 1.', example: 1 }),
  limit: z.coerce
    .number('must be a whole number from 1 to 100')
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be >= 1')
    .max(100, 'must be <= 100')
    .default(10)
    .meta({ description: 'Items a page, 1 to 100.', example: 10 }),
});

/** Error codes the API answers with; clients should treat unknown codes like their status. */
export const errorCodes = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'unavailable',
} as const;
export type ErrorStatus = keyof typeof errorCodes;

/** Codes that say more than their status's own code, each with the status it comes with. */
export const specificErrorCodes = {
  idempotency_key_reused: { status: 400, description: 'the Idempotency-Key was used before with another request' },
  template_not_usable: {
    status: 400,
    description:
      'createCampaign on a server that sends through WhatsApp: the company never submitted the template, or every submission of it is `rejected`, `paused`, `disabled` or `failed`',
  },
  idempotency_in_progress: { status: 409, description: 'a request with this Idempotency-Key is still running; retry after `Retry-After`' },
  campaign_status_conflict: {
    status: 409,
    description:
      'pauseCampaign, resumeCampaign or cancelCampaign on a campaign whose status does not allow it (a completed campaign cannot be paused); the message names the status and what is allowed',
  },
  too_many_endpoints: {
    status: 409,
    description: 'the company has as many webhook endpoints as the server allows (20 unless it sets another cap); delete one first',
  },
  database_unavailable: { status: 503, description: 'the database refuses connections or every connection stayed busy; retry after `Retry-After`' },
  draining: { status: 503, description: 'getReadiness while the instance drains before it stops; send requests to another instance' },
} as const satisfies Record<string, { status: ErrorStatus; description: string }>;

/**
 * Requests a minute a company may make (its tokens together) unless the server sets another
 * (`RATE_LIMIT_PER_MINUTE`): past it, 429 `rate_limited` with `Retry-After`.
 */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 1_200;

/** Every error code the API answers with. */
export type ErrorCode = (typeof errorCodes)[ErrorStatus] | keyof typeof specificErrorCodes;

/** The codes as the document lists them: each status's own, then the specific ones with their status. */
const documentedCodes = [
  ...Object.values(errorCodes).map((code) => `\`${code}\``),
  ...Object.entries(specificErrorCodes).map(([code, { status, description }]) => `\`${code}\` (${status}: ${description})`),
].join(', ');

/**
 * The most issues an error answer lists; `issues_total` counts them all. With the server's bounds on
 * each issue's length, this keeps an error answer small whatever the request held.
 */
export const MAX_ISSUES = 100;

export const Issue = z
  .object({
    path: z.string().meta({
      description: 'The offending field, dot-separated (e.g. `template_payload.variables.first_name`); empty for the whole input.',
      example: 'phoneNumber',
    }),
    message: z.string().meta({ description: 'What is wrong with it.', example: 'must be an E.164 phone number: "+" then 7 to 15 digits, e.g. "+1234567890"' }),
  })
  .meta({ id: 'Issue' });
export type Issue = z.infer<typeof Issue>;

/** The error envelope of every 4xx and 5xx answer. */
export const ErrorResponse = z
  .object({
    success: z.literal(false),
    message: z.string().meta({ description: 'What went wrong, for a person.', example: 'Invalid request: phoneNumber must be an E.164 phone number' }),
    code: z.string().meta({
      description: `Machine-readable error code: ${documentedCodes}. More may follow; treat an unknown code like its status.`,
      example: 'validation_error',
    }),
    issues: z
      .array(Issue)
      .max(MAX_ISSUES)
      .optional()
      .meta({ description: `The offending fields, on 400: the first ${MAX_ISSUES} found at most (\`issues_total\` counts them all).` }),
    issues_total: z
      .int()
      .min(0)
      .optional()
      .meta({ description: `How many offending fields were found, beside \`issues\`, which lists at most ${MAX_ISSUES} of them.`, example: 1 }),
    requestId: z.string().meta({ description: 'The request id, also in the x-request-id header.', example: 'req_5f3c9b2e8a1d4c67' }),
    status: z.literal(false).optional().meta({ description: 'Sync answers carry `status` beside `success`, for compatibility.' }),
  })
  .meta({ id: 'ErrorEnvelope', description: 'The error envelope.' });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
