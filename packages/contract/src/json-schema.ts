import * as z from 'zod';

/** Meta keys zod-openapi reads that JSON Schema does not have: z.toJSONSchema would copy them in. */
const openApiOnlyKeys = ['outputId', 'unusedIO', 'param', 'header', 'override'];

/** The JSON Schema (draft 2020-12) of `schema`, with none of zod-openapi's own meta keys. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      for (const key of openApiOnlyKeys) delete (jsonSchema as Record<string, unknown>)[key];
    },
  }) as Record<string, unknown>;
}
