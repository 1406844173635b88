/** Writes dist/fixtures.schema.json, the JSON Schema of sample data files, from the built package (the last step of `pnpm build`). */
import { writeFileSync } from 'node:fs';
import { mockDataJsonSchema } from '../dist/index.js';

const file = new URL('../dist/fixtures.schema.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(mockDataJsonSchema(), null, 2)}\n`);
