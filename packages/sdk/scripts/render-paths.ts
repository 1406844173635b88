/** Renders the SDK's `paths` types from the contract's committed OpenAPI document. */
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/** The contract document the types come from. */
export const OPENAPI_FILE = new URL('../../contract/openapi.yaml', import.meta.url);

/** Where the generated types live (committed). */
export const SDK_PATHS_FILE = fileURLToPath(new URL('../src/generated/paths.ts', import.meta.url));

const HEADER = '// Generated from packages/contract/openapi.yaml by openapi-typescript (`pnpm --filter @engagekit/sdk generate`). Do not edit.\n';

/**
 * The content of src/generated/paths.ts, deterministic for a given document: openapi-typescript with
 * its default flags, as integrators run it (the document keeps request fields the server fills in
 * optional, and lists every field an answer always carries in `required`).
 */
export async function renderPaths(): Promise<string> {
  const ast = await openapiTS(OPENAPI_FILE);
  return HEADER + astToString(ast);
}
