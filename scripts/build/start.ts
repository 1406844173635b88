/**
 * `pnpm start` (the reference server) and the mock's `start`: builds what is stale, then runs the
 * package's command (its bin file, which imports dist/cli.js) in this process, as `npx` runs it for a
 * user. Arguments after the package name go to the command.
 *
 * @example node scripts/build/start.ts mock-server --port 4010
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, PACKAGES, type PackageName, packageDir } from './ensure-built.ts';

const name = process.argv[2] as PackageName;
if (!PACKAGES.includes(name)) {
  console.error(`usage: node scripts/build/start.ts <${PACKAGES.join('|')}> [arguments]`);
  process.exit(2);
}
await ensureBuilt([name], { progress: true });
// The command reads its own arguments from process.argv.slice(2).
process.argv.splice(2, 1);
// pnpm passes a `--` that separated its own flags from the command's.
if (process.argv[2] === '--') process.argv.splice(2, 1);
const { bin } = JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { bin?: Record<string, string> };
const [command] = Object.values(bin ?? {});
if (!command) throw new Error(`@engagekit/${name} has no command.`);
await import(pathToFileURL(join(packageDir(name), command)).href);
