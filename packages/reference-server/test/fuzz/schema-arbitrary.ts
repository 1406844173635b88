/**
 * fast-check arbitraries derived from JSON Schema, for the subset `z.toJSONSchema(schema, { io: 'input' })`
 * makes of the contract: objects (required and optional properties, additionalProperties), arrays (min
 * and max items), strings (length, pattern, format, enum, const), integers and numbers with bounds,
 * booleans, null, anyOf/oneOf/allOf and `$ref` into `$defs`. The values are meant to pass the schema, so
 * a request reaches its handler; a hint puts known values (real ids) at chosen places.
 */
import fc from 'fast-check';
import * as z from 'zod';

/** The JSON Schema keywords the contract's request schemas use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** A place in a generated value: property names and `*` for any item or dictionary value. */
export type SchemaPath = readonly string[];

/**
 * An arbitrary to use at `path` instead of the schema's, or undefined to follow the schema. `follow()`
 * is the schema's own arbitrary there, to mix in beside known values.
 */
export type SchemaHint = (path: SchemaPath, schema: JsonSchema, follow: () => fc.Arbitrary<unknown>) => fc.Arbitrary<unknown> | undefined;

export interface SchemaArbitraryOptions {
  hint?: SchemaHint;
  /** Arrays get at most this many items past their `minItems` (default 3): long lists cost time, not coverage. */
  extraItems?: number;
  /** Strings get at most this many characters past their `minLength` (default 24), and now and then exactly `maxLength`. */
  extraLength?: number;
}

/** The input-side JSON Schema of a zod schema (what a client may send). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Any small JSON value: what a schema without constraints (`{}`) takes. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

const earliest = new Date('0001-01-01T00:00:00.000Z');
const latest = new Date('9999-12-31T23:59:59.999Z');
/** Mostly dates near now, where the schedules live; now and then any four-digit year. */
const someDate = fc.oneof(
  { weight: 4, arbitrary: fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }) },
  { weight: 1, arbitrary: fc.date({ min: earliest, max: latest, noInvalidDate: true }) },
);

/** Date-times at the ends of what four-digit years can say, some of them past it in UTC. */
const EDGE_DATE_TIMES = [
  '0000-01-01T00:00:00Z',
  '0000-01-01T00:00:00+14:00',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59-12:00',
  '2024-02-29T12:00:00Z',
  '2025-03-30T02:30:00+01:00',
];

/** ISO-8601 date-times with `Z` or an offset, seconds and fractions or not; the local time is the one the offset gives. */
export const dateTimeText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .tuple(someDate, fc.constantFrom(0, 0, 330, -480, 840, -720, 60), fc.constantFrom('ms', 's', 'min'))
      .map(([date, offsetMinutes, precision]) => {
        const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString();
        const time = precision === 'ms' ? local.slice(0, 23) : precision === 's' ? local.slice(0, 19) : local.slice(0, 16);
        if (offsetMinutes === 0) return `${time}Z`;
        const abs = Math.abs(offsetMinutes);
        return `${time}${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
      }),
  },
  { weight: 1, arbitrary: fc.constantFrom(...EDGE_DATE_TIMES) },
);

/** Calendar dates `YYYY-MM-DD`, the first and last four-digit days among them. */
export const dateText: fc.Arbitrary<string> = fc.oneof(
  { weight: 9, arbitrary: someDate.map((d) => d.toISOString().slice(0, 10)) },
  { weight: 1, arbitrary: fc.constantFrom('0000-01-01', '0001-01-01', '9999-12-31', '2024-02-29') },
);

/** Well-known text forms, each with the shape that tells a value of the form. */
const KNOWN_FORMS: { shape: RegExp; values: () => fc.Arbitrary<string> }[] = [
  { shape: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, values: () => dateTimeText },
  { shape: /^\d{4}-\d{2}-\d{2}$/, values: () => dateText },
];

/**
 * The well-known form (date-time, date) a pattern given without a `format` stands for: the one whose
 * shape every string the pattern makes has; undefined when it is none of them.
 */
function knownFormOf(pattern: RegExp): fc.Arbitrary<string> | undefined {
  const made = fc.sample(fc.stringMatching(pattern), { numRuns: 20, seed: 1 });
  return KNOWN_FORMS.find((form) => made.every((v) => form.shape.test(v)))?.values();
}

/** http(s) URLs of public-looking hosts. */
const webUrlText = fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true });

/**
 * An arbitrary of values that `root` (a JSON Schema, with its `$defs`) describes.
 *
 * @example
 * const body = arbitraryFromSchema(jsonSchemaOf(SubmitTemplateBody));
 * fc.sample(body, 1); // [{ template_name: 'x', phone_number: '+123456' }]
 */
export function arbitraryFromSchema(root: JsonSchema, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const defs = root.$defs ?? {};
  const extraItems = options.extraItems ?? 3;
  const extraLength = options.extraLength ?? 24;

  const resolve = (s: JsonSchema): JsonSchema => {
    if (!s.$ref) return s;
    const name = /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1];
    const target = name === undefined ? undefined : defs[name];
    if (!target) throw new Error(`Cannot resolve ${s.$ref}: only #/$defs/<name> references are supported`);
    const { $ref: _, ...siblings } = s;
    return resolve({ ...target, ...siblings });
  };

  const build = (schema: JsonSchema, path: SchemaPath): fc.Arbitrary<unknown> => {
    const s = resolve(schema);
    return options.hint?.(path, s, () => follow(s, path)) ?? follow(s, path);
  };

  const follow = (s: JsonSchema, path: SchemaPath): fc.Arbitrary<unknown> => {
    // The contract has no recursive schemas; this bound only keeps a recursive one from looping.
    if (path.length > 32) return fc.constant(null);
    if ('const' in s) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    const branches = s.anyOf ?? s.oneOf;
    if (branches) {
      const { anyOf: _a, oneOf: _o, ...rest } = s;
      return fc.oneof(...branches.map((b) => build({ ...rest, ...resolve(b) }, path)));
    }
    if (s.allOf) {
      const { allOf, ...rest } = s;
      return build(allOf.map(resolve).reduce(mergeSchemas, rest), path);
    }
    if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type) => build({ ...s, type }, path)));
    switch (s.type) {
      case 'object':
        return objectOf(s, path);
      case 'array': {
        const minLength = s.minItems ?? 0;
        const maxLength = Math.min(s.maxItems ?? Number.POSITIVE_INFINITY, minLength + extraItems);
        return fc.array(s.items ? build(s.items, [...path, '*']) : anyJson, { minLength, maxLength });
      }
      case 'string':
        return stringOf(s);
      case 'integer':
        return fc.integer({ min: lowerBound(s, 1, Number.MIN_SAFE_INTEGER), max: upperBound(s, 1, Number.MAX_SAFE_INTEGER) });
      case 'number': {
        const min = lowerBound(s, 0, -1e15);
        const max = upperBound(s, 0, 1e15);
        return fc.double({
          min,
          max,
          noNaN: true,
          noDefaultInfinity: true,
          minExcluded: s.exclusiveMinimum !== undefined,
          maxExcluded: s.exclusiveMaximum !== undefined,
        });
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        return anyJson;
    }
  };

  const objectOf = (s: JsonSchema, path: SchemaPath): fc.Arbitrary<unknown> => {
    const properties = s.properties ?? {};
    const names = Object.keys(properties);
    if (names.length === 0) {
      if (s.additionalProperties === false) return fc.constant({});
      const values = typeof s.additionalProperties === 'object' ? build(s.additionalProperties, [...path, '*']) : anyJson;
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values, { maxKeys: extraItems, noNullPrototype: true });
    }
    const model = Object.fromEntries(names.map((name) => [name, build(properties[name] as JsonSchema, [...path, name])]));
    return fc.record(model, { requiredKeys: (s.required ?? []).filter((name) => name in properties), noNullPrototype: true });
  };

  const stringOf = (s: JsonSchema): fc.Arbitrary<string> => {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Number.POSITIVE_INFINITY;
    const fits = (v: string) => v.length >= min && v.length <= max;
    if (s.format === 'date-time') return dateTimeText;
    if (s.format === 'date') return dateText;
    if (s.format === 'uri') return webUrlText.filter(fits);
    if (s.format === 'uuid') return fc.uuid();
    if (s.pattern) {
      const re = new RegExp(s.pattern);
      const form = knownFormOf(re);
      const matching = fc.stringMatching(re).filter(fits);
      // A date-time given by its pattern alone: mostly real ones, since the pattern says nothing of which days exist.
      return form ? fc.oneof({ weight: 9, arbitrary: form.filter((v) => re.test(v) && fits(v)) }, { weight: 1, arbitrary: matching }) : matching;
    }
    if (s.format === 'email') return fc.emailAddress().filter(fits);
    const upTo = Math.min(max, min + extraLength);
    const short = fc.oneof(
      { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: upTo }) },
      // Graphemes past ASCII may take two UTF-16 units each: keep only those that still fit.
      { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: upTo, unit: 'grapheme' }).filter(fits) },
    );
    return Number.isFinite(max) && max > upTo
      ? fc.oneof({ weight: 9, arbitrary: short }, { weight: 1, arbitrary: fc.string({ minLength: max, maxLength: max, unit: 'grapheme-ascii' }) })
      : short;
  };

  return build(root, []);
}

function lowerBound(s: JsonSchema, step: number, fallback: number): number {
  if (s.minimum !== undefined) return s.minimum;
  if (s.exclusiveMinimum !== undefined) return s.exclusiveMinimum + step;
  return fallback;
}

function upperBound(s: JsonSchema, step: number, fallback: number): number {
  if (s.maximum !== undefined) return s.maximum;
  if (s.exclusiveMaximum !== undefined) return s.exclusiveMaximum - step;
  return fallback;
}

/** Two schemas that must both hold, as one (objects' properties and required lists joined; else the later one's keywords win). */
function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  return {
    ...a,
    ...b,
    ...(a.properties || b.properties ? { properties: { ...a.properties, ...b.properties } } : {}),
    ...(a.required || b.required ? { required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])] } : {}),
  };
}
