/**
 * A partner's TypeScript project under pnpm's strict layout, part of `pnpm test:packaging`: the mock and
 * the SDK installed from their tarballs with pnpm, so that @engagekit/runtime, @engagekit/contract and
 * openapi-fetch are installed but not the project's own dependencies (it cannot import them), and `tsc`
 * emitting declarations over a module that keeps inferred values of both in exports. TypeScript fails
 * there with TS2742 on a type it can name only through a package the project cannot import: what the
 * type-names check of `pnpm lint:packages` (type-names.ts) holds the built declarations to.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { PackageName } from '../build/ensure-built.ts';
import { run } from './commands.ts';
import { withOwnDependencies } from './install-weight.ts';
import type { Tarballs } from './pack.ts';

/** The partner's module: each export a value whose type TypeScript infers from the packages. */
const EXPORTS = `import { setupMockApi } from '@engagekit/mock-server/node';
import { createClient, type Middleware } from '@engagekit/sdk';

export const mock = setupMockApi();
export const snapshot = mock.snapshot();
export const channel = snapshot.channel;
export const store = snapshot.store;
export const liveStore = mock.store;
export const orders = await mock.store.listOrders(mock.company.uuid, { page: 1, limit: 10 });
export const clock = mock.clock;
export const state = await mock.state();
export const requests = mock.requests();
export const client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch });
export const agency = client.api.agency;
export const use = client.api.agency.use;
export const campaigns = await client.campaigns.list();
export const teamHeader: Middleware = { onRequest: ({ request }) => request };
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    declaration: true,
    emitDeclarationOnly: true,
    outDir: 'out',
    skipLibCheck: true,
  },
  include: ['src'],
};

/** Installs the mock and the SDK with pnpm into `work/strict-layout` and emits the partner module's declarations there; rejects naming what failed. */
export async function strictLayoutTypes(work: string, tarballs: Tarballs, env: NodeJS.ProcessEnv): Promise<void> {
  const dir = join(work, 'strict-layout');
  mkdirSync(join(dir, 'src'), { recursive: true });
  const fromTarballs = (names: PackageName[]) => Object.fromEntries(names.map((n) => [`@engagekit/${n}`, `file:${tarballs[n]}`]));
  const direct: PackageName[] = ['mock-server', 'sdk'];
  // What they depend on of ours comes from the tarballs too (it is not on the registry).
  const beneath = [...new Set(direct.flatMap(withOwnDependencies))].filter((n) => !direct.includes(n));
  const manifest = { name: 'strict-layout', private: true, type: 'module', dependencies: fromTarballs(direct), pnpm: { overrides: fromTarballs(beneath) } };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  writeFileSync(join(dir, 'src', 'exports.ts'), EXPORTS);
  await run('pnpm', ['install', '--ignore-workspace', '--reporter=silent'], { cwd: dir, env });
  // The repository's TypeScript, run in the project: it resolves the packages from there.
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await run('node', [tsc, '-p', dir], { cwd: dir, env });
}
