/** The text an assistant reads for a tool's answer: the report of a run, the hits of a search. */
import type { ExecuteReport, ReportedError } from './executor.ts';
import type { CallRecord } from './run-log.ts';
import type { SearchHit } from './search.ts';

/** The longest returned value shown in the text (the structured result carries it whole). */
const RESULT_TEXT_LIMIT = 50_000;

/** A run's report as text: where it ran, the calls, the console, then the result or the error. */
export function formatReport(report: ExecuteReport, where: string): string {
  const out: string[] = [report.target === 'mock' ? `Ran against the mock (a rehearsal: nothing reached ${where}).` : `Ran against ${where}.`];
  if (report.mockTime) out.push(`Mock time at the end: ${report.mockTime}.`);
  out.push('', report.calls.length ? `Calls (${report.calls.length}):` : 'Calls: none.');
  for (const call of report.calls) out.push(`  ${formatCall(call)}`);
  if (report.console.length) out.push('', 'Console:', ...report.console.map((l) => `  ${l}`));
  out.push('');
  if (report.error) out.push(formatError(report.error));
  else if (report.result === undefined) out.push('Returned nothing (return a value to see it here).');
  else {
    const text = JSON.stringify(report.result, null, 2);
    out.push(
      'Returned:',
      text.length > RESULT_TEXT_LIMIT ? `${text.slice(0, RESULT_TEXT_LIMIT)}\n[cut at ${RESULT_TEXT_LIMIT} characters: return less]` : text,
    );
  }
  return out.join('\n');
}

/** `campaigns.create POST createCampaign -> 201 (request req_1) 3 ms`. */
function formatCall(call: CallRecord): string {
  const head = call.operationId ? `${call.operation} ${call.method} ${call.operationId}${call.page !== undefined ? ` page ${call.page}` : ''}` : call.operation;
  const status = call.status !== undefined ? ` -> ${call.status}` : '';
  const id = call.requestId ? ` (request ${call.requestId})` : '';
  const tail = call.error ? `: ${call.error}` : call.note ? `: ${call.note}` : '';
  return `${head}${status}${id} ${call.ms} ms${tail}`;
}

/** An error with what a person needs to act on it: class, status and code, request id, each bad field, the line. */
function formatError(error: ReportedError): string {
  const about = [error.status, error.code].filter((x) => x !== undefined).join(' ');
  const lines = [`Failed: ${error.name}${about ? ` (${about})` : ''}: ${error.message}`];
  if (error.operation) lines.push(`  in client.${error.operation}`);
  if (error.requestId) lines.push(`  request id: ${error.requestId}`);
  if (Array.isArray(error.issues))
    for (const issue of error.issues as { path?: string; message?: string }[]) lines.push(`  - ${issue.path || '(body)'}: ${issue.message}`);
  if (error.line !== undefined) lines.push(`  at line ${error.line} of the code`);
  return lines.join('\n');
}

/** Search hits as text: each the entry's Markdown (which names its method and shows its example). */
export function formatHits(query: string, hits: SearchHit[]): string {
  if (hits.length === 0) {
    return `Nothing in the docs matches "${query}". Try words of the API (campaign, schedule, order, customer, template, report, webhook, error) or an SDK method such as campaigns.create.`;
  }
  return hits.map((h) => h.entry.text).join('\n\n---\n\n');
}
