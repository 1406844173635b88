/**
 * Bounds on what a tool answers: a text cut with a marker that gives the full size, and a run's
 * report brought under the answer's maximum (`--max-answer`), the error, console and call list first,
 * then the returned value, which a run that returns too much gives up for an error saying so.
 */
import { cut } from './cut.ts';
import type { ExecuteReport } from './report.ts';
import type { CallRecord } from './run-log.ts';

/** The most characters a tool answer holds unless told otherwise: its text and its structured content each hold at most this. */
export const DEFAULT_MAX_ANSWER_CHARS = 100_000;

const size = (value: unknown) => JSON.stringify(value)?.length ?? 0;

/** The longest `error` or `note` of one call record, in characters. */
const CALL_TEXT_CHARS = 300;

/** The calls a report shows within `budget` characters: the first ones and the last ones, with a marker record between. */
function boundCalls(calls: CallRecord[], budget: number): CallRecord[] {
  const each = calls.map((c) => ({
    ...c,
    ...(c.error ? { error: cut(c.error, CALL_TEXT_CHARS) } : {}),
    ...(c.note ? { note: cut(c.note, CALL_TEXT_CHARS) } : {}),
  }));
  if (size(each) <= budget) return each;
  const per = Math.max(1, Math.ceil(size(each) / each.length));
  const keep = Math.max(2, Math.floor(budget / per));
  const head = each.slice(0, Math.ceil(keep / 2));
  const tail = each.slice(each.length - Math.floor(keep / 2));
  const left = each.length - head.length - tail.length;
  return [
    ...head,
    { operation: '[cut]', ms: 0, note: `${left.toLocaleString('en-US')} calls not shown here, of ${each.length.toLocaleString('en-US')} in all` },
    ...tail,
  ];
}

/** Console lines within `budget` characters, with a marker line when cut. */
function boundConsole(lines: string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    const kept = cut(line, Math.max(200, budget - used));
    if (used + kept.length > budget) {
      out.push(`[console cut: ${lines.length - out.length} more lines not shown]`);
      break;
    }
    out.push(kept);
    used += kept.length;
  }
  return out;
}

/**
 * `report` within `max` characters of JSON. The error, each call and each console line are cut where
 * long; the call list and the console get a share of `max` each; a returned value that does not fit
 * in what is left becomes a `LimitExceeded` error (`limit: 'answer'`) giving its size.
 */
export function boundReport(report: ExecuteReport, max: number): ExecuteReport {
  const out: ExecuteReport = {
    ...report,
    console: boundConsole(report.console, Math.floor(max / 5)),
    calls: boundCalls(report.calls, Math.floor(max / 4)),
    ...(report.webhooks ? { webhooks: boundWebhooks(report.webhooks, Math.floor(max / 10)) } : {}),
  };
  if (!('result' in out)) return out;
  const { result, ...rest } = out;
  const resultSize = size(result);
  // Room for the text's own words around the value.
  if (size(rest) + resultSize + 2_000 <= max) return out;
  return {
    ...rest,
    ok: false,
    error: {
      name: 'LimitExceeded',
      limit: 'answer',
      message: `The returned value is ${resultSize.toLocaleString('en-US')} characters of JSON; an answer may hold ${max.toLocaleString('en-US')} (--max-answer), the calls and console output included. Return a summary, or fewer items.`,
    },
  };
}

function boundWebhooks(webhooks: NonNullable<ExecuteReport['webhooks']>, budget: number): NonNullable<ExecuteReport['webhooks']> {
  if (size(webhooks) <= budget) return webhooks;
  const per = Math.max(1, Math.ceil(size(webhooks) / webhooks.length));
  const kept = webhooks.slice(0, Math.max(1, Math.floor(budget / per)));
  return [...kept, { url: '', type: `[cut: ${webhooks.length - kept.length} more webhooks not shown, of ${webhooks.length} in all]`, eventId: '' }];
}
