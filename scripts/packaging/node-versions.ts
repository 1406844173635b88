/**
 * Node binaries of other major versions, for tests that run the packages under each Node they claim.
 * One comes from, in order: this process (when it is that version), `NODE<major>_PATH`, `node` on
 * PATH, /usr/bin/node, or the toolchain cache, where the npm registry's `node-<os>-<arch>` package
 * is installed once (as scripts/bootstrap.sh installs Node 24).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

const majorOf = async (bin: string): Promise<number | undefined> => {
  try {
    return Number((await execFileAsync(bin, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' })).stdout.trim());
  } catch {
    return undefined;
  }
};

/** The registry package that ships Node's binary for this machine. */
function nodePackage(): string {
  const os = { linux: 'linux', darwin: 'darwin' }[process.platform as string];
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch as string];
  if (!os || !arch) throw new Error(`No Node package on the npm registry for ${process.platform}-${process.arch}: set NODE<major>_PATH.`);
  return `node-${os}-${arch}`;
}

/**
 * A Node binary of `major`. With `install` (default true) a missing one is installed from the npm
 * registry into `$ENGAGEKIT_TOOLCHAIN/../node<major>`; without it, undefined when there is none.
 * Asynchronous, so that the packaging test fetches one while npm installs the tarballs.
 */
export function nodeBinary(major: number, options: { install: false }): Promise<string | undefined>;
export function nodeBinary(major: number, options?: { install?: true }): Promise<string>;
export async function nodeBinary(major: number, options: { install?: boolean } = {}): Promise<string | undefined> {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  const toolchain = process.env.ENGAGEKIT_TOOLCHAIN ?? join(homedir(), '.cache', 'engagekit', 'toolchain');
  const cached = join(toolchain, '..', `node${major}`, 'bin', 'node');
  const candidates = [process.env[`NODE${major}_PATH`], 'node', '/usr/bin/node', cached].filter((c): c is string => Boolean(c));
  for (const bin of candidates) {
    if ((bin === 'node' || existsSync(bin)) && (await majorOf(bin)) === major) return bin;
  }
  if (options.install === false) return undefined;
  await execFileAsync('npm', [
    'install',
    '--global',
    '--prefix',
    join(cached, '..', '..'),
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    `${nodePackage()}@${major}`,
  ]);
  if ((await majorOf(cached)) !== major) throw new Error(`Installed ${nodePackage()}@${major}, but ${cached} is not Node ${major}.`);
  return cached;
}
