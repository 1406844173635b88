import type * as z from 'zod';

/** Peels optional/nullable/default/pipe wrappers off a schema. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } };
  for (;;) {
    const d = s.def;
    if (d.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(d.type)) s = d.innerType as typeof s;
    else if (d.type === 'pipe' && d.in) s = d.in as typeof s;
    else return s;
  }
}

/**
 * Checks that every field of `value` exists in `schema` with a value the schema accepts: the fields
 * the public docs show are a subset of ours. Returns the paths that break, empty when compatible.
 */
export function subsetMismatches(schema: z.ZodType, value: unknown, path = ''): string[] {
  const s = unwrap(schema) as z.ZodType & { def: { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType } };
  if (value === null) return schema.safeParse(null).success ? [] : [`${path}: null not accepted`];
  if (s.def.type === 'object' && typeof value === 'object' && !Array.isArray(value)) {
    const shape = s.def.shape ?? {};
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
      const field = shape[k];
      return field ? subsetMismatches(field, v, path ? `${path}.${k}` : k) : [`${path ? `${path}.` : ''}${k}: not in our schema`];
    });
  }
  if (s.def.type === 'array' && Array.isArray(value) && s.def.element) {
    return value.flatMap((v, i) => subsetMismatches(s.def.element as z.ZodType, v, `${path}[${i}]`));
  }
  const r = schema.safeParse(value);
  return r.success ? [] : [`${path}: ${r.error.issues.map((i) => i.message).join('; ')}`];
}
