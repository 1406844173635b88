/**
 * `pnpm bench`: every benchmark on 127.0.0.1, ours and its peer side by side in the same run, a few
 * rounds each, medians. Prints a table and writes bench/results/latest.json.
 * `pnpm bench server.` runs only the rows whose id starts with an argument. Each bench runs in a Node
 * process of its own.
 */

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Bench, Row } from './lib.ts';
import { benches as campaignBenches } from './rows/campaigns.ts';
import { benches as channelBenches } from './rows/channel.ts';
import { benches as installBenches } from './rows/install.ts';
import { benches as mcpBenches } from './rows/mcp.ts';
import { benches as memoryBenches } from './rows/memory.ts';
import { benches as mockCallBenches } from './rows/mock-calls.ts';
import { benches as mockHeapBenches } from './rows/mock-heap.ts';
import { benches as mockHttpBenches } from './rows/mock-http.ts';
import { benches as mockSessionBenches } from './rows/mock-sessions.ts';
import { benches as mockStartupBenches } from './rows/mock-startup.ts';
import { benches as reportBenches } from './rows/report.ts';
import { benches as sdkBenches } from './rows/sdk.ts';
import { benches as serverBenches } from './rows/server.ts';
import { benches as serverHealthBenches } from './rows/server-health.ts';
import { benches as serverWriteBenches } from './rows/server-write.ts';
import { benches as tracingBenches } from './rows/tracing.ts';
import { benches as twinBenches } from './rows/twin.ts';
import { benches as webhookBenches } from './rows/webhooks.ts';

// The PostgreSQL rows make their own databases on this server.
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

/** Starts the line a child prints its rows on. */
const ROW_MARK = 'bench-rows:';

/** Every bench, in the order they run: each rows file lists its own. */
const benches: Bench[] = [
  ...sdkBenches,
  ...mockCallBenches,
  ...mockHeapBenches,
  ...mockHttpBenches,
  ...mockSessionBenches,
  ...mockStartupBenches,
  ...twinBenches,
  ...serverBenches,
  ...serverWriteBenches,
  ...tracingBenches,
  ...serverHealthBenches,
  ...reportBenches,
  ...campaignBenches,
  ...channelBenches,
  ...memoryBenches,
  ...webhookBenches,
  ...installBenches,
  ...mcpBenches,
];

/** `--row <id>`: run that one bench here and print its rows as JSON (what the parent process asks each child). */
const ROW_FLAG = '--row';
if (process.argv[2] === ROW_FLAG) {
  const bench = benches.find((b) => b.id === process.argv[3]);
  if (!bench) throw new Error(`no bench ${process.argv[3]}`);
  const r = await bench.run();
  process.stdout.write(`${ROW_MARK}${JSON.stringify(Array.isArray(r) ? r : [r])}\n`);
  process.exit(0);
}

/**
 * Runs one bench in a Node process of its own, so that no row inherits another's heap, JIT state or
 * open sockets. Resolves to its rows.
 */
function runIsolated(bench: Bench): Promise<Row[]> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ROW_FLAG, bench.id], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(ROW_MARK));
      if (code === 0 && line) ok(JSON.parse(line.slice(ROW_MARK.length)) as Row[]);
      else fail(new Error(`exited ${code}${out ? `: ${out.trim().slice(-500)}` : ''}`));
    });
  });
}

const filters = process.argv.slice(2);
const chosen = benches.filter((b) => filters.length === 0 || filters.some((f) => b.id.startsWith(f)));
const rows: Row[] = [];
const started = Date.now();
for (const bench of chosen) {
  const t0 = Date.now();
  process.stdout.write(`${bench.id} ... `);
  try {
    rows.push(...(await runIsolated(bench)));
    console.log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } catch (e) {
    console.log(`FAILED: ${(e as Error).message}`);
    rows.push({
      id: bench.id,
      metric: 'failed to run',
      ours: Number.NaN,
      peer: null,
      ratio: null,
      unit: '',
      better: 'higher',
      met: false,
      note: (e as Error).message,
    });
  }
}

const fmt = (n: number | null) =>
  n === null || Number.isNaN(n) ? '—' : n >= 100 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 1000) / 1000);
console.log(`\n${'id'.padEnd(34)} ${'ours'.padStart(10)} ${'peer'.padStart(10)} ${'ratio'.padStart(7)}  ${'unit'.padEnd(9)} ${'goal'.padEnd(22)} met`);
for (const r of rows) {
  console.log(
    `${r.id.padEnd(34)} ${fmt(r.ours).padStart(10)} ${fmt(r.peer).padStart(10)} ${fmt(r.ratio).padStart(7)}  ${r.unit.padEnd(9)} ${(r.goal ?? 'report').padEnd(22)} ${r.met === null || r.met === undefined ? '' : r.met ? 'yes' : 'NO'}`,
  );
}
console.log(
  `\n${rows.length} rows in ${Math.round((Date.now() - started) / 1000)} s on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);

// A chosen few rows are being looked at: their notes too (a full run keeps them in latest-details.json).
if (filters.length > 0) for (const r of rows) if (r.note) console.log(`\n${r.id}: ${r.note}`);

if (filters.length === 0) {
  writeFileSync(
    new URL('./results/latest.json', import.meta.url),
    `${JSON.stringify(
      rows.map(({ id, metric, ours, peer, ratio, unit, better, goal, met }) => ({
        id,
        metric,
        ours,
        peer,
        ratio,
        unit,
        better,
        goal: goal ?? null,
        met: met ?? null,
      })),
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    new URL('./results/latest-details.json', import.meta.url),
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, rows }, null, 2)}\n`,
  );
}
