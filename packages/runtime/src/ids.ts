/** Makes opaque ids such as `cmp_0m3x7k2a9f4q1b8c`. */
export interface IdGenerator {
  newId(prefix: string): string;
  /** A version-4 UUID. */
  uuid(): string;
}

/**
 * A UUID in the one form company uuids are kept and compared in: lower case. The contract takes A-F
 * as well as a-f, so every lookup by a uuid a caller gave (a query, a path prefix, an admin path, the
 * mock's `state(uuid)`) and a uuid a company is made with that the server did not generate (the mock's
 * `company.uuid` option) goes through this first.
 *
 * @example canonicalUuid('53D1BCD3-AAF0-45E1-9298-5395B6A27B61') // '53d1bcd3-aaf0-45e1-9298-5395b6a27b61'
 */
export function canonicalUuid(uuid: string): string {
  return uuid.toLowerCase();
}

/** Formats 16 bytes as a version-4 UUID. */
function formatUuid(bytes: Uint8Array): string {
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Random ids from Web Crypto: 16 base-36 characters after the prefix. */
export function createRandomIds(): IdGenerator {
  return {
    newId(prefix) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      let s = '';
      for (const b of bytes) s += ALPHABET[b % 36];
      return `${prefix}_${s}`;
    },
    uuid: () => crypto.randomUUID(),
  };
}

/** Seeded ids that can say where their sequence is, to carry on from there later (`resumeSeededIds`). */
export interface SeededIds extends IdGenerator {
  /** The sequence's position now. */
  position(): number;
}

/**
 * Deterministic ids for a seed: the same seed gives the same ids in the same order (mock and tests).
 * A small xorshift generator; not for secrets.
 */
export function createSeededIds(seed: number | string): SeededIds {
  return resumeSeededIds(typeof seed === 'number' ? seed >>> 0 || 1 : [...seed].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7) || 1);
}

/** Seeded ids carrying on from a `position()`: the ids that would have come next. */
export function resumeSeededIds(position: number): SeededIds {
  let x = position;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  return {
    newId(prefix) {
      let s = '';
      for (let i = 0; i < 16; i++) s += ALPHABET[next() % 36];
      return `${prefix}_${s}`;
    },
    uuid() {
      return formatUuid(Uint8Array.from({ length: 16 }, () => next() & 0xff));
    },
    position: () => x,
  };
}
