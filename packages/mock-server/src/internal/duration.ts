/** Durations as the mock takes them: `mock.clock.advance()`, `POST /__mock/clock` and `--session-idle`. No imports, so the command's flags read it without loading the app. */

const UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds in `by`: a number of milliseconds (>= 0) or a string such as `'250ms'`, `'90s'`, `'90m'`, `'2h'`, `'1.5d'`. */
export function parseDuration(by: number | string): number {
  if (typeof by === 'number' && Number.isFinite(by) && by >= 0) return by;
  if (typeof by === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(by);
    if (m) return Number(m[1]) * UNITS[m[2] as keyof typeof UNITS];
  }
  throw new TypeError(`advance(): ${JSON.stringify(by)} is not a duration; give milliseconds (>= 0) or a string such as '90s', '90m', '2h' or '1d'.`);
}
