/**
 * Answer schemas derived from request schemas: what the server keeps of a field it was given, so that
 * a resource's fields are declared once, in its request, and its answer follows.
 */
import * as z from 'zod';

/**
 * The type the store keeps of a request field `S`: the value as parsed; null for an optional field the
 * caller never sent, except a list, which is kept empty.
 */
type Kept<S> = S extends z.ZodOptional<infer Inner> ? (z.output<Inner> extends readonly unknown[] ? z.output<Inner> : z.output<Inner> | null) : z.output<S>;

/** Request schemas whose kept form is a component of its own (a request's `Product` is kept as `OrderProduct`). */
type KeptComponents = ReadonlyMap<z.ZodType, z.ZodType>;

/** The example a schema's own metadata gives, or that of the schema it wraps (an optional's, a pipe's output). */
function exampleOf(schema: z.ZodType): unknown {
  const own = schema.meta()?.example;
  if (own !== undefined) return own;
  if (schema.def.type === 'optional') return exampleOf((schema as z.ZodOptional).unwrap() as z.ZodType);
  return undefined;
}

const withExample = (schema: z.ZodType, example: unknown): z.ZodType => (example === undefined ? schema : schema.meta({ example }));

/** The kept form of a value schema, without its example: its type, without the request's limits (they held when it was taken). */
function keptValue(schema: z.ZodType, components: KeptComponents): z.ZodType {
  const component = components.get(schema);
  if (component) return component;
  // By the definition's type: string formats (an email) and number formats (an int) are of their base type.
  switch (schema.def.type) {
    case 'string':
      return z.string();
    case 'number':
      return (schema as z.ZodNumber).format === 'safeint' ? z.int() : z.number();
    case 'unknown':
      return z.unknown();
    case 'pipe':
      return keptField((schema as z.ZodPipe).out as z.ZodType, components);
    case 'array':
      return z.array(keptField((schema as z.ZodArray<z.ZodType>).element, components));
    case 'record':
      return z.record(z.string(), keptField((schema as z.ZodRecord<z.ZodString, z.ZodType>).valueType, components));
    case 'object':
      return z.object(keptShape((schema as z.ZodObject).shape, components));
    default:
      throw new Error(`No kept form for a request field of type "${schema.def.type}": say in kept.ts how the server keeps it.`);
  }
}

/**
 * How an answer shows a request field the server kept: its type without the request's limits, with the
 * field's example. An optional field is nullable (null when never sent), but an optional list is kept
 * empty. A field of a type it does not know is a thrown error, never a field left out.
 */
export function keptField<S extends z.ZodType>(field: S, components: KeptComponents = new Map()): z.ZodType<Kept<S>, Kept<S>> {
  const example = exampleOf(field);
  if (field.def.type !== 'optional') return withExample(keptValue(field, components), example) as z.ZodType<Kept<S>, Kept<S>>;
  const inner = keptValue((field as z.ZodType as z.ZodOptional).unwrap() as z.ZodType, components);
  return withExample(inner.def.type === 'array' ? inner : inner.nullable(), example) as z.ZodType<Kept<S>, Kept<S>>;
}

/**
 * The answer shape of a request shape, field by field in its order (`keptField`). Its type is written out
 * rather than named by an alias, so that the packages whose exports reach `Order` need not export one.
 */
export function keptShape<Shape extends z.ZodRawShape>(
  shape: Shape,
  components: KeptComponents = new Map(),
): { [K in keyof Shape]: z.ZodType<Kept<Shape[K]>, Kept<Shape[K]>> } {
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, keptField(field as z.ZodType, components)])) as {
    [K in keyof Shape]: z.ZodType<Kept<Shape[K]>, Kept<Shape[K]>>;
  };
}
