/**
 * The last step of `pnpm build`: writes the JSON documents the package ships, from the built package:
 * dist/fixtures.schema.json (the JSON Schema of sample data) and dist/control-openapi.json (the
 * OpenAPI document of the /__mock control endpoints).
 */
import { writeFileSync } from 'node:fs';
import { controlDocument, mockDataJsonSchema } from '../dist/index.js';

for (const [name, document] of [
  ['fixtures.schema.json', mockDataJsonSchema()],
  ['control-openapi.json', controlDocument()],
] as const) {
  writeFileSync(new URL(`../dist/${name}`, import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
}
