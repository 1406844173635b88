/**
 * The examples as a newcomer meets them: each has a `test` script, and every `pnpm --filter <package>
 * <script>` its README gives names a package and a script that exist. (The examples' own tests run
 * those commands.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './build/ensure-built.ts';

interface PackageJson {
  name: string;
  scripts?: Record<string, string>;
}
const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
const examples = readdirSync(join(ROOT, 'examples')).map((name) => {
  const dir = join(ROOT, 'examples', name);
  return { name, pkg: read(dir), readme: readFileSync(join(dir, 'README.md'), 'utf8') };
});
/** Every workspace package a README may name with --filter. */
const workspace = [...examples.map((e) => e.pkg), ...readdirSync(join(ROOT, 'packages')).map((name) => read(join(ROOT, 'packages', name)))];

describe.each(examples)('examples/$name', ({ pkg, readme }) => {
  it('has a test script', () => {
    expect(pkg.scripts?.test).toBeTruthy();
  });

  it('gives only pnpm commands whose package and script exist in its README', () => {
    for (const [, target, script] of readme.matchAll(/pnpm --filter ([^\s`]+) ([\w:-]+)/g)) {
      const named = workspace.find((p) => p.name === target);
      expect(named, `pnpm --filter ${target}: no such package`).toBeDefined();
      expect(named?.scripts?.[script as string], `pnpm --filter ${target} ${script}: no such script`).toBeTruthy();
    }
    // A `node examples/...` line would run under whatever Node is on PATH, which may be too old for .ts.
    expect(readme).not.toMatch(/^node examples\//m);
  });
});
