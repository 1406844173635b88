/** Records shaped by the contract's output schemas: the API shows exactly a schema's fields, in its order. */

/** The fields of a contract object schema, in its order. */
export const schemaFields = (schema: { shape: object }): readonly string[] => Object.keys(schema.shape);

/** `source`'s values of `fields`, in that order (a stored record's fields of the store's own left out). */
export function shaped<T>(source: object, fields: readonly string[]): T {
  const shown: Record<string, unknown> = {};
  for (const key of fields) shown[key] = (source as Record<string, unknown>)[key];
  return shown as T;
}
