/** The text an assistant reads for a tool's answer: the report of a run, the hits of a search. */
import type { ExecuteReport, ReportedError } from './report.ts';
import type { CallRecord } from './run-log.ts';
import type { SearchHit } from './search.ts';

/**
 * A run's report as text: where it ran, the calls, the webhooks a rehearsal recorded, the console,
 * then the result or the error. The report is already bounded (bound.ts): the text shows the same.
 */
export function formatReport(report: ExecuteReport, where: string, maxChars: number): string {
  const out: string[] = [report.target === 'mock' ? `Ran against the mock (a rehearsal: nothing reached ${where}).` : `Ran against ${where}.`];
  if (report.mockTime) out.push(`Mock time at the end: ${report.mockTime}.`);
  out.push('', report.calls.length ? `Calls (${report.calls.length}):` : 'Calls: none.');
  for (const call of report.calls) out.push(`  ${formatCall(call)}`);
  const unknown = report.calls.filter((c) => c.inFlight).length;
  if (unknown) out.push(`  (${unknown} still in flight when the run ended: each left the host, and whether it took effect is unknown; read before retrying)`);
  if (report.webhooks?.length) {
    out.push('', `Webhooks the mock recorded (${report.webhooks.length}; sent nowhere):`);
    for (const w of report.webhooks) out.push(`  ${w.type} ${w.eventId} -> ${w.url}`);
  }
  if (report.console.length) out.push('', 'Console:', ...report.console.map((l) => `  ${l}`));
  out.push('');
  if (report.error) out.push(formatError(report.error));
  else if (report.result === undefined) out.push('Returned nothing (return a value to see it here).');
  else {
    // The structured content carries the same value: the text stays within the same bound, compact when indenting would not.
    const pretty = JSON.stringify(report.result, null, 2);
    out.push('Returned:', pretty.length <= maxChars / 2 ? pretty : JSON.stringify(report.result));
  }
  return out.join('\n');
}

/** `campaigns.create POST createCampaign -> 201 (request req_1) 3 ms`. */
function formatCall(call: CallRecord): string {
  const head = call.operationId ? `${call.operation} ${call.method} ${call.operationId}${call.page !== undefined ? ` page ${call.page}` : ''}` : call.operation;
  const status = call.status !== undefined ? ` -> ${call.status}` : '';
  const id = call.requestId ? ` (request ${call.requestId})` : '';
  const tail = call.error
    ? `: ${call.error}`
    : call.note
      ? `: ${call.note}`
      : call.replayed
        ? ': replayed (the server answered as the first time: nothing new was written)'
        : '';
  return `${head}${status}${id} ${call.ms} ms${tail}`;
}

/** An error with what a person needs to act on it: class, status and code, request id, each bad field, the line. */
function formatError(error: ReportedError): string {
  const about = [error.status, error.code].filter((x) => x !== undefined).join(' ');
  const lines = [`Failed: ${error.name}${about ? ` (${about})` : ''}: ${error.message}`];
  if (error.operation) lines.push(`  in client.${error.operation}`);
  if (error.requestId) lines.push(`  request id: ${error.requestId}`);
  for (const issue of error.issues ?? []) lines.push(`  - ${issue.path || '(body)'}: ${issue.message}`);
  if (error.issueCount)
    lines.push(
      `  ... and ${(error.issueCount - (error.issues?.length ?? 0)).toLocaleString('en-US')} more issues (${error.issueCount.toLocaleString('en-US')} in all)`,
    );
  if (error.line !== undefined) lines.push(`  at line ${error.line} of the code`);
  return lines.join('\n');
}

/**
 * Search hits as text: each the entry's short form (its signature, example and the fields' names),
 * which ends by saying how to ask for the whole entry.
 */
export function formatHits(query: string, hits: SearchHit[]): string {
  if (hits.length === 0) {
    return `Nothing in the docs matches "${query}". Try words of the API (campaign, schedule, order, customer, template, report, webhook, error) or an SDK method such as campaigns.create.`;
  }
  return hits.map((h) => h.entry.short).join('\n\n---\n\n');
}
