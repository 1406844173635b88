/**
 * Renders openapi.yaml and src/generated/paths.ts from the zod contract.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { stringify } from 'yaml';
import { createOpenApiDocument } from './document.ts';

/** The generated files, by path relative to the package root. */
export async function renderGeneratedFiles(): Promise<Record<string, string>> {
  const doc = createOpenApiDocument();
  const yaml = `# Generated from packages/contract/src by \`pnpm --filter @engagekit/contract generate\`. Do not edit.\n${stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })}`;
  // Request fields with defaults stay optional in the types, as the server treats them.
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0], { defaultNonNullable: false });
  const paths = `// Generated from openapi.yaml by openapi-typescript. Do not edit.\n${astToString(ast)}`;
  return { 'openapi.yaml': yaml, 'src/generated/paths.ts': paths };
}
