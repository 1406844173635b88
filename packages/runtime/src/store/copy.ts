/**
 * A deep copy of stored data: plain objects, arrays and primitives are copied by hand, anything else
 * (a Date, a Map) by `structuredClone`. The memory store copies every record it takes or gives, and
 * `structuredClone` serializes and deserializes, which cost more than the rest of a read.
 */
export function copy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copy((value as Record<string, unknown>)[key]);
    // A `__proto__` key (JSON.parse makes one from '{"__proto__":…}') stays a plain own property.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}

/**
 * `value`, plain data the store has copied, frozen with every object in it: for a record the store
 * writes once and never changes (an event). `cloneGraph` keeps a frozen object as it is, so a snapshot
 * and the store share such records instead of copying them: events and their payloads are most of what
 * a restore would copy (benchmark row mock.restore.vs-reset).
 */
export function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) frozen(item);
    Object.freeze(value);
  }
  return value;
}

/**
 * A deep copy of a graph of maps, sets, arrays and objects in which an object reached twice is copied
 * once, so the copy shares what the original shares (a record in a map and in an index stays one
 * record). Objects keep their prototype; dates are copied; anything else not plain is kept as it is,
 * and so is a frozen object (see `frozen`: the store freezes only plain data it never changes).
 * For the memory store's snapshots.
 */
export function cloneGraph<T>(value: T, seen = new Map<object, unknown>()): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const known = seen.get(value);
  if (known !== undefined) return known as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof Map) {
    const out = new Map();
    seen.set(value, out);
    for (const [k, v] of value) out.set(cloneGraph(k, seen), cloneGraph(v, seen));
    return out as T;
  }
  if (value instanceof Set) {
    const out = new Set();
    seen.set(value, out);
    for (const v of value) out.add(cloneGraph(v, seen));
    return out as T;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const v of value) out.push(cloneGraph(v, seen));
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  const out = (proto === Object.prototype ? {} : Object.create(proto)) as Record<string, unknown>;
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const item = cloneGraph((value as Record<string, unknown>)[key], seen);
    // Plain assignment, and defineProperty only for a `__proto__` key (JSON.parse makes one), which
    // must stay an own property: defineProperty for every key is too slow for the row
    // mock.restore.vs-reset.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}
