/**
 * The Graph API's error answers, as the Cloud API gives them: `{ error: { message, type, code,
 * error_data: { messaging_product, details }, fbtrace_id } }`, with the HTTP status Meta's error-code
 * reference names for each code.
 */
import { randomBytes } from 'node:crypto';

/** A Graph API error answer: the HTTP status and the body. */
export interface GraphError {
  status: number;
  body: {
    error: {
      message: string;
      type: string;
      code: number;
      error_data: { messaging_product: 'whatsapp'; details: string };
      error_subcode?: number;
      fbtrace_id: string;
    };
  };
}

/** Each code the emulator answers with: its title (Meta puts it in `message`) and its HTTP status. */
const CODES: Record<number, { title: string; status: number }> = {
  100: { title: 'Invalid parameter', status: 400 },
  190: { title: 'Access token has expired', status: 401 },
  130429: { title: 'Rate limit hit', status: 400 },
  131056: { title: '(Business Account, Consumer Account) pair rate limit hit', status: 400 },
  132000: { title: 'Number of parameters does not match the expected number of params', status: 400 },
  132001: { title: 'Template does not exist', status: 404 },
  132015: { title: 'Template is Paused', status: 400 },
  132016: { title: 'Template is Disabled', status: 400 },
};

/** The title of a code Meta documents (used in status webhooks' `errors` too), or a plain one. */
export function errorTitle(code: number): string {
  return CODES[code]?.title ?? FAILURE_TITLES[code] ?? 'Message failed to send';
}

/** Titles of the codes a failed status may carry. */
const FAILURE_TITLES: Record<number, string> = {
  131026: 'Message undeliverable',
  131042: 'Business eligibility payment issue',
  131047: 'Re-engagement message',
  131049: 'This message was not delivered to maintain healthy ecosystem engagement.',
  131053: 'Media upload error',
};

/** The error answer for `code`, with `details` saying what exactly was wrong. */
export function graphError(code: number, details: string, options: { subcode?: number } = {}): GraphError {
  const known = CODES[code] ?? { title: 'Unknown error', status: 400 };
  return {
    status: known.status,
    body: {
      error: {
        message: `(#${code}) ${known.title}`,
        type: 'OAuthException',
        code,
        error_data: { messaging_product: 'whatsapp', details },
        ...(options.subcode === undefined ? {} : { error_subcode: options.subcode }),
        fbtrace_id: randomBytes(9).toString('base64url'),
      },
    },
  };
}
