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
  0: { title: 'AuthException', status: 401 },
  1: { title: 'API Unknown', status: 400 },
  2: { title: 'API Service', status: 503 },
  3: { title: 'API Method', status: 500 },
  4: { title: 'API Too Many Calls', status: 400 },
  10: { title: 'Permission Denied', status: 403 },
  100: { title: 'Invalid parameter', status: 400 },
  190: { title: 'Access token has expired', status: 401 },
  200: { title: 'API Permission', status: 403 },
  368: { title: 'Temporarily blocked for policies violations', status: 403 },
  80007: { title: 'Rate limit issues', status: 400 },
  131000: { title: 'Something went wrong', status: 500 },
  131008: { title: 'Required parameter is missing', status: 400 },
  131009: { title: 'Parameter value is not valid', status: 400 },
  131016: { title: 'Service unavailable', status: 503 },
  131021: { title: 'Recipient cannot be sender', status: 400 },
  131026: { title: 'Message undeliverable', status: 400 },
  131031: { title: 'Business Account locked', status: 403 },
  131042: { title: 'Business eligibility payment issue', status: 400 },
  131047: { title: 'Re-engagement message', status: 400 },
  131048: { title: 'Spam rate limit hit', status: 400 },
  131049: { title: 'This message was not delivered to maintain healthy ecosystem engagement.', status: 400 },
  131050: { title: 'User has stopped marketing messages', status: 400 },
  131051: { title: 'Unsupported message type', status: 400 },
  130429: { title: 'Rate limit hit', status: 400 },
  131056: { title: '(Business Account, Consumer Account) pair rate limit hit', status: 400 },
  132000: { title: 'Number of parameters does not match the expected number of params', status: 400 },
  132001: { title: 'Template does not exist', status: 404 },
  132015: { title: 'Template is Paused', status: 400 },
  132016: { title: 'Template is Disabled', status: 400 },
  133004: { title: 'Server temporarily unavailable', status: 503 },
  133010: { title: 'Phone number not registered', status: 400 },
};

/** The title of a code Meta documents (used in status webhooks' `errors` too), or a plain one. */
export function errorTitle(code: number): string {
  return codeOf(code)?.title ?? (code === 131053 ? 'Media upload error' : 'Message failed to send');
}

/** What the table says of `code`; the permission codes 200 to 299 share one row. */
const codeOf = (code: number) => CODES[code] ?? (code >= 200 && code <= 299 ? CODES[200] : undefined);

/** The error answer for `code`, with `details` saying what exactly was wrong. */
export function graphError(code: number, details: string, options: { subcode?: number } = {}): GraphError {
  const known = codeOf(code) ?? { title: 'Unknown error', status: 400 };
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
