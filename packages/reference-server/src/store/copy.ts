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
