import * as z from 'zod';
import { CompanyUuid, Timestamp, text } from '../primitives.ts';
import { CompanyCode } from './order.ts';

const TimeZone = z
  .string()
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Paris or UTC')
  .meta({ description: 'IANA time zone for recurring campaign times.', example: 'Asia/Kolkata' });

export const CreateCompanyBody = z
  .object({
    name: text(200, 'Company name.', 'Verma Retail'),
    company_id: CompanyCode.optional().meta({ description: 'The company code orders carry; generated when absent.' }),
    timezone: TimeZone.default('UTC'),
  })
  .meta({ id: 'NewCompany' });
export type CreateCompanyBody = z.input<typeof CreateCompanyBody>;

export const Company = z
  .object({
    uuid: CompanyUuid,
    company_id: z.string().meta({ example: 'VERPL000972024' }),
    name: z.string().meta({ example: 'Verma Retail' }),
    timezone: z.string().meta({ example: 'Asia/Kolkata' }),
    created_at: Timestamp,
  })
  .meta({ id: 'Company' });
export type Company = z.infer<typeof Company>;

export const CompanyParams = z.object({ uuid: CompanyUuid });

export const Scope = z
  .enum(['agency', 'orders'])
  .meta({ id: 'Scope', description: '`agency` for the agency operations, `orders` for the order operations and webhooks (their events are orders).' });
export type Scope = z.infer<typeof Scope>;

export const CreateTokenBody = z
  .object({
    scopes: z
      .array(Scope)
      .min(1, 'must list at least one scope')
      .max(Scope.options.length, `must list at most ${Scope.options.length} scopes, each once`)
      .refine((s) => new Set(s).size === s.length, 'must not repeat a scope')
      .optional()
      .meta({ description: 'Both when absent.', example: ['agency', 'orders'] }),
    expires_in: z
      .int('must be a whole number of seconds')
      .min(60, 'must be at least 60 seconds')
      .max(157_680_000, 'must be at most 5 years (157680000 seconds)')
      .default(2_592_000)
      .meta({ description: 'Lifetime in seconds; 30 days when left out.', example: 2592000 }),
  })
  .meta({ id: 'TokenRequest' });
export type CreateTokenBody = z.input<typeof CreateTokenBody>;

const TokenId = z.string().meta({ description: 'The token’s id: its `jti` claim.', example: '7f9c2e4a-1b3d-4c5e-8f6a-0b1c2d3e4f5a' });

export const Token = z
  .object({
    id: TokenId,
    token: z.string().meta({ description: 'A JWT for `Authorization: Bearer`.', example: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1M2QxYmNkMyJ9.c2lnbmF0dXJl' }),
    token_type: z.literal('Bearer'),
    scopes: z.array(Scope).meta({ example: ['agency', 'orders'] }),
    expires_at: Timestamp,
  })
  .meta({ id: 'Token' });
export type Token = z.infer<typeof Token>;

/** A token as the server keeps it: never its text, only its id, scopes, times and whether it was revoked. */
export const IssuedToken = z
  .object({
    id: TokenId,
    scopes: z.array(Scope).meta({ example: ['agency', 'orders'] }),
    issued_at: Timestamp,
    expires_at: Timestamp,
    revoked_at: Timestamp.nullable().meta({ description: 'When it was revoked (one by one, or with every token of the company); null while it is not.' }),
  })
  .meta({ id: 'IssuedToken' });
export type IssuedToken = z.infer<typeof IssuedToken>;

export const TokenParams = CompanyParams.extend({
  tokenId: z
    .string()
    .min(1, 'must not be empty')
    .max(64, 'must be at most 64 characters')
    .meta({ description: 'The token’s id (its `jti`).', example: '7f9c2e4a-1b3d-4c5e-8f6a-0b1c2d3e4f5a' }),
});

/** What revoking every token of a company did. */
export const TokensRevoked = z
  .object({
    tokens_valid_after: Timestamp.meta({
      description: 'Tokens of the company issued until this time (at or before it) are refused (401), whether or not they are listed.',
    }),
    revoked: z.int().min(0).meta({ description: 'Listed tokens that this call revoked.', example: 3 }),
  })
  .meta({ id: 'TokensRevoked' });
export type TokensRevoked = z.infer<typeof TokensRevoked>;

export const Health = z
  .object({
    status: z.enum(['ok', 'degraded']).meta({ id: 'HealthStatus', description: 'Whether the server is fully up.', example: 'ok' }),
    database: z.enum(['ok', 'unavailable']).meta({ id: 'DatabaseStatus', description: 'Whether the database answers.', example: 'ok' }),
    version: z.string().meta({ description: "The server's own version (its package's), which changes with every release of the server.", example: '1.4.0' }),
    api_version: z
      .string()
      .meta({ description: 'The version of the API it serves: `info.version` of the OpenAPI document at `/openapi.json`.', example: '0.1.0' }),
    uptime_s: z.number().min(0).meta({ example: 12.5 }),
  })
  .meta({ id: 'Health' });

/** getLiveness's answer: the process serves. */
export const Liveness = z
  .object({ status: z.literal('live').meta({ description: 'Always `live`: an answer at all is the news.', example: 'live' }) })
  .meta({ id: 'Liveness' });

/** getReadiness's answer: the instance takes traffic. */
export const Readiness = z
  .object({ status: z.literal('ready').meta({ description: 'Always `ready`; a server that is not answers 503.', example: 'ready' }) })
  .meta({ id: 'Readiness' });
