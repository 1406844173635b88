/** Exact sums of money amounts, so the memory store reaches the same totals as PostgreSQL's `numeric`. */

/**
 * An exact decimal: `digits / 10^scale`. Money is summed this way so the memory store reaches the
 * same totals as PostgreSQL's `numeric` (0.1 + 0.2 is 0.3 in both, not 0.30000000000000004).
 */
export interface Decimal {
  digits: bigint;
  scale: number;
}

/** Zero as a Decimal. */
export const decimalZero: Decimal = { digits: 0n, scale: 0 };

/** The exact decimal a number prints as (its shortest round-trip form, which is what the SQL store writes). */
export function toDecimal(value: number): Decimal {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new Error(`Not a finite amount: ${value}.`);
  const [, sign = '', whole = '0', fraction = '', exponent = '0'] = match;
  let digits = BigInt(whole + fraction);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits: sign ? -digits : digits, scale };
}

/** a + b (or a - b with `sign` -1), exactly. */
export function addDecimal(a: Decimal, b: Decimal, sign: 1 | -1 = 1): Decimal {
  const scale = Math.max(a.scale, b.scale);
  const digits = a.digits * 10n ** BigInt(scale - a.scale) + BigInt(sign) * b.digits * 10n ** BigInt(scale - b.scale);
  return { digits, scale };
}

/** The nearest number to a Decimal (correctly rounded, as `Number()` of PostgreSQL's text output). */
export function decimalToNumber(value: Decimal): number {
  const negative = value.digits < 0n;
  const text = (negative ? -value.digits : value.digits).toString().padStart(value.scale + 1, '0');
  const cut = text.length - value.scale;
  return Number(`${negative ? '-' : ''}${text.slice(0, cut)}.${text.slice(cut) || '0'}`);
}

/** The exact sum of amounts, as a number. */
export function sumAmounts(amounts: Iterable<number>): number {
  let total = decimalZero;
  for (const amount of amounts) total = addDecimal(total, toDecimal(amount));
  return decimalToNumber(total);
}
