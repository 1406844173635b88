import type { IdGenerator } from '../ids.ts';

/** A caller's `x-request-id` the API takes as its own: short, and safe in a header and a log line. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the caller's `x-request-id` when well-formed, else a new `req_...` id. */
export function requestIdOf(request: Request, ids: IdGenerator): string {
  const sent = request.headers.get('x-request-id');
  return sent && WELL_FORMED.test(sent) ? sent : ids.newId('req');
}
