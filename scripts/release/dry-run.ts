/**
 * `pnpm release:dry-run`: what `pnpm release` would do, on a throwaway copy of the repository (run
 * after the build): `changeset version` turns the pending changesets into versions and changelogs,
 * then, after an offline install from the store, `pnpm -r publish --dry-run` packs what would reach npm. Checks that every published package
 * got the same new version and a changelog entry for it, and that their dependencies on each other
 * became ranges on that version. The repository itself is left untouched.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PACKAGES, ROOT } from '../build/ensure-built.ts';
import { onStopSignal } from '../packaging/commands.ts';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
}

const failures: string[] = [];
const copy = mkdtempSync(join(tmpdir(), 'engagekit-release-'));
// Stopped (Ctrl-C, or pnpm test when another check failed): the copy goes too.
onStopSignal(() => rmSync(copy, { recursive: true, force: true }));
const sh = (cmd: string, args: string[], cwd = copy) => {
  console.log(`release:dry-run: ${[cmd, ...args].join(' ')}`);
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CI: '1' } });
  } catch (e) {
    const { stdout = '', stderr = '' } = e as { stdout?: string; stderr?: string };
    throw new Error(`\`${[cmd, ...args].join(' ')}\` failed in the throwaway copy ${copy}:\n${stdout}${stderr}`);
  }
};

try {
  // The repository as committed (plus the builds the packages publish), without node_modules or .git.
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (src) => !/(^|\/)(node_modules|\.git|\.data)(\/|$)/.test(relative(ROOT, src)),
  });
  const before = Object.fromEntries(PACKAGES.map((p) => [p, readManifest(p).version]));
  sh(join(ROOT, 'node_modules', '.bin', 'changeset'), ['version']);
  const after = Object.fromEntries(PACKAGES.map((p) => [p, readManifest(p)]));
  const versions = new Set(PACKAGES.map((p) => after[p]?.version));
  if (versions.size !== 1)
    failures.push(`the packages did not get one version: ${JSON.stringify(Object.fromEntries(PACKAGES.map((p) => [p, after[p]?.version])))}`);
  const [version] = versions;
  for (const p of PACKAGES) {
    if (after[p]?.version === before[p]) failures.push(`@engagekit/${p} stayed at ${before[p]}: is there a pending changeset?`);
    if (!readFileSync(join(copy, 'packages', p, 'CHANGELOG.md'), 'utf8').includes(`## ${version}`))
      failures.push(`packages/${p}/CHANGELOG.md has no ## ${version} entry`);
  }
  if (readdirSync(join(copy, '.changeset')).some((f) => f.endsWith('.md') && f !== 'README.md')) failures.push('changeset version left changesets behind');

  // pnpm publish resolves `workspace:` ranges through the installed links: install from the store, as CI would.
  sh('pnpm', ['install', '--frozen-lockfile', '--offline', '--ignore-scripts']);
  const published = sh('pnpm', ['-r', 'publish', '--dry-run', '--no-git-checks', '--access', 'public']);
  for (const p of PACKAGES)
    if (!published.includes(`@engagekit/${p}@${version}`)) failures.push(`pnpm -r publish --dry-run did not publish @engagekit/${p}@${version}`);

  // What npm would get: the packed manifests, workspace ranges resolved.
  const packs = join(copy, '.packs');
  for (const p of PACKAGES) sh('pnpm', ['pack', '--pack-destination', packs], join(copy, 'packages', p));
  for (const tarball of readdirSync(packs)) {
    const manifest = JSON.parse(execFileSync('tar', ['-xOzf', join(packs, tarball), 'package/package.json'], { encoding: 'utf8' })) as Manifest;
    for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
      if (dep.startsWith('@engagekit/') && range !== `^${version}`) failures.push(`${manifest.name} depends on ${dep}@${range}, not ^${version}`);
    }
    if (manifest.private) failures.push(`${manifest.name} is private`);
  }
  console.log(`release:dry-run: ${PACKAGES.map((p) => `@engagekit/${p} ${before[p]} -> ${after[p]?.version}`).join(', ')}`);
} finally {
  rmSync(copy, { recursive: true, force: true });
}

function readManifest(name: string): Manifest {
  return JSON.parse(readFileSync(join(copy, 'packages', name, 'package.json'), 'utf8')) as Manifest;
}

if (failures.length > 0) {
  console.error(`release:dry-run failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('release:dry-run: ok');
