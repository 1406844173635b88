import autocannon from 'autocannon';

/** One row of bench/results/latest.json. */
export interface Row {
  id: string;
  metric: string;
  ours: number;
  peer: number | null;
  ratio: number | null;
  unit: string;
  better: 'lower' | 'higher';
  goal?: string;
  met?: boolean | null;
  note?: string;
}

/** A benchmark: measures ours and its peer in the same run, several rounds, and reports medians. */
export interface Bench {
  id: string;
  run(): Promise<Row | Row[]>;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/**
 * The mean of `xs` without its lowest and highest tenth. On a shared virtual machine a few batches of
 * calls read several times the CPU time of the rest, on either side of a row alike; a plain mean
 * follows them, a trimmed one does not.
 */
export function trimmedMean(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length / 10);
  const kept = sorted.slice(cut, sorted.length - cut);
  return kept.reduce((sum, x) => sum + x, 0) / kept.length;
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};

/** Requests a second against `url` from `connections` connections for `seconds`. */
export async function loadTest(opts: { url: string; connections: number; seconds: number; headers?: Record<string, string> }): Promise<number> {
  const result = await autocannon({ url: opts.url, connections: opts.connections, duration: opts.seconds, headers: opts.headers ?? {} });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load test on ${opts.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

/** What `inTurns` gives each side: its figure of every round, their median, and its warm-up figure (when it had one). */
export interface Turns {
  samples: number[];
  median: number;
  warmUp: number | undefined;
}

/**
 * Runs `rounds` rounds in which every side runs once, in turn, and gives each side's figures and their
 * median. With `warmUp`, every side first runs one turn that is not counted: the throughput rows measure
 * a process in its steady state, and a process's first seconds of load run on code its JIT has not yet
 * optimised (in process, the mock's first turn made markedly fewer calls a second than its later ones).
 */
export async function inTurns<K extends string>(
  rounds: number,
  sides: Record<K, () => Promise<number>>,
  opts: { warmUp?: boolean } = {},
): Promise<Record<K, Turns>> {
  const names = Object.keys(sides) as K[];
  const warmUp = {} as Record<K, number | undefined>;
  for (const name of names) warmUp[name] = opts.warmUp ? await sides[name]() : undefined;
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < rounds; i++) for (const name of names) samples[name].push(await sides[name]());
  return Object.fromEntries(names.map((name) => [name, { samples: samples[name], median: median(samples[name]), warmUp: warmUp[name] }])) as Record<K, Turns>;
}

/** `inTurns` of two sides, no warm-up: each one's median and figures. */
export async function sideBySide(rounds: number, ours: () => Promise<number>, peer: () => Promise<number>) {
  const r = await inTurns(rounds, { ours, peer });
  return { ours: r.ours.median, peer: r.peer.median, samples: { ours: r.ours.samples, peer: r.peer.samples } };
}

/** A side's figures for a row's note: `a, b, c` by round, and the warm-up turn's figure. */
export const turnsNote = (t: Turns, digits = 0) =>
  `${t.samples.map((x) => x.toFixed(digits)).join(', ')}${t.warmUp === undefined ? '' : ` (warm-up turn, not counted: ${t.warmUp.toFixed(digits)})`}`;

/** A row's goal: the ratio it must reach, written once for both the table and the check. */
export interface Goal {
  text: string;
  met(ratio: number): boolean;
}

/** The goal `ratio <= limit`; `note` says what the peer is when it is a limit (`limit 10 ms`). */
export const atMost = (limit: number, note?: string): Goal => ({ text: `<= ${limit}${note ? ` (${note})` : ''}`, met: (ratio) => ratio <= limit });

/** The goal `ratio >= limit`. */
export const atLeast = (limit: number, note?: string): Goal => ({ text: `>= ${limit}${note ? ` (${note})` : ''}`, met: (ratio) => ratio >= limit });

/** A row from its figures; without a goal it is reported only. */
export function row(r: Omit<Row, 'ratio' | 'met' | 'goal'> & { goal?: Goal }): Row {
  const ratio = r.peer === null || r.peer === 0 ? null : r.ours / r.peer;
  const { goal, ...rest } = r;
  return {
    ...rest,
    ratio: ratio === null ? null : Math.round(ratio * 1000) / 1000,
    goal: goal?.text ?? 'report',
    met: goal ? goal.met(ratio ?? Number.NaN) : null,
  };
}

/**
 * CPU time (user + system, µs) this process spends a call of each side: `batches` turns, each running a
 * batch of `batch` calls of every side (the order flipping every turn), with `process.cpuUsage()` read
 * around each batch, and the trimmed mean of each side's batches. CPU time, not wall time: time the
 * scheduler gives the machine's other work (and, over loopback, the server's process) is not counted.
 * Batches rather than single calls: reading the clock is a syscall, and a few calls a batch make its cost
 * negligible while the turns stay short enough that every side sees the same moment of the machine.
 */
export async function cpuPerCallInTurns<K extends string>(
  batches: number,
  batch: number,
  sides: Record<K, () => Promise<unknown>>,
): Promise<Record<K, number>> {
  const cpu = async (call: () => Promise<unknown>) => {
    const before = process.cpuUsage();
    for (let i = 0; i < batch; i++) await call();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / batch;
  };
  const names = Object.keys(sides) as K[];
  const perSide = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < batches; i++) {
    for (const name of i % 2 === 0 ? names : [...names].reverse()) perSide[name].push(await cpu(sides[name]));
  }
  return Object.fromEntries(names.map((name) => [name, trimmedMean(perSide[name])])) as Record<K, number>;
}

/** Medians over `rounds` rounds of `cpuPerCallInTurns`, after one round of warm-up. */
export async function cpuRounds<K extends string>(rounds: number, batches: number, batch: number, sides: Record<K, () => Promise<unknown>>) {
  await cpuPerCallInTurns(batches, batch, sides); // warm up: JIT, connections
  const r: Record<K, number>[] = [];
  for (let round = 0; round < rounds; round++) r.push(await cpuPerCallInTurns(batches, batch, sides));
  const names = Object.keys(sides) as K[];
  return Object.fromEntries(names.map((name) => [name, median(r.map((x) => x[name]))])) as Record<K, number>;
}
