/**
 * What the code `execute` runs gets, told once: the tool's description and the docs index's guide
 * entry (scripts/build-index.ts) both quote it.
 */

/** The sandbox, in Markdown. */
export const SANDBOX_GUIDE = `The code is the body of an async function: use \`await\` anywhere and \`return\` a value to get it back as JSON. TypeScript is accepted (types are stripped, not checked). It runs in a QuickJS WebAssembly sandbox, a fresh one for every call.

What the code gets:
- \`client\`: the engagekit SDK's company client. Each method call crosses to the server, where the real SDK makes it, and comes back as data: \`await client.campaigns.get(id)\` is the campaign. \`.withResponse()\` on a single call gives \`{ data, status, requestId }\`, and \`replayed: true\` when the server answered a retried write (same \`idempotencyKey\`) as the first time. \`await client.company.get()\` is your company, with the \`company_id\` order calls name. Request options: \`timeout\`, \`maxRetries\` and \`idempotencyKey\` pass; any other is refused.
- Lists are the SDK's own, held on the server: \`await client.campaigns.list({ limit: 50 })\` is one page (\`data\`, \`page\`, \`total\`, \`nextPage\`, \`hasNextPage()\`, \`getNextPage()\`); \`for await (const c of client.campaigns.list())\` walks every item, a page fetch at a time; \`.pages()\` walks the pages; \`.toArray({ max })\` collects up to \`max\` items.
- Errors: a failed call rejects with an Error named after the SDK's class (\`BadRequestError\`, \`NotFoundError\`, \`ConflictError\`, ...) carrying \`status\`, \`code\`, \`requestId\` and, on a 400, \`issues\` (the bad fields: the first 20, with \`issueCount\` when there were more).
- \`console.log\` (and \`info\`, \`warn\`, \`error\`, \`debug\`): printed lines come back with the result.
- In a rehearsal (a run against the mock): \`mock.clock\`, the mock's clock, which moves only when told: \`mock.clock.now()\` (a Date), \`mock.clock.set(date)\`, \`await mock.clock.advance('2h')\` (also \`'90m'\`, \`'1d'\` or milliseconds), which runs every campaign and webhook that falls due on the way. \`new Date()\` and \`Date.now()\` read the same clock. \`mock.webhooks()\`: the webhooks the mock recorded (the newest 50), each \`{ url, type, eventId }\`: a rehearsal sends none. Code that uses \`mock\` is refused, before any call, in a run that goes to the live API.
- Nothing else: no \`fetch\`, \`process\`, \`require\`, \`import\`, timers, or Node and web APIs. The code reaches the API only through \`client\`, and nothing else at all.

What comes back: the returned value, the console output, and one line per request that left the server (the SDK method, its operation, the status and the request id; retries and page fetches each count). When a limit ends a run, the calls still in flight are waited for a few seconds, then listed as "in flight, outcome unknown": read before you retry a write. Errors, console output and the whole answer are cut to a maximum, with a marker saying how much there was.

Rehearsal: with \`dry_run: true\` (or when the server runs with \`--target mock\`) the same code runs against an in-process engagekit mock instead of the live API, as your own company (the same uuid and company_id) when the server has a live token. The mock lives as long as the server, so state built by one call is there for the next; \`reset: true\` starts it afresh (its sample data loaded again). Rehearse a campaign there, move the clock past its schedule and read the report before touching real customers.

Admin operations (companies, tokens, customer imports) are not available: \`client\` holds one company's token.`;

/**
 * A rehearsal from start to finish: create a campaign, move the mock's clock past it, read the report.
 * Typechecked with the other examples.
 */
export const REHEARSAL_EXAMPLE = `const inAnHour = new Date(mock.clock.now().getTime() + 60 * 60 * 1000);
const campaign = await client.campaigns.create({
  name: 'Friday sale (rehearsal)',
  schedule_type: 'once',
  schedule: inAnHour.toISOString(),
  template_payload: { template_name: 'welcome' },
});
await mock.clock.advance('2h');
const report = await client.reports.get();
return { status: (await client.campaigns.get(campaign.id)).status, messages: report.messages };`;
