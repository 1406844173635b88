/**
 * The README's configurations for Claude Desktop, Cursor, VS Code and Claude Code: each JSON block is
 * valid JSON declaring an engagekit server, the command it names is in the packed package, and its
 * flags and environment are ones the command takes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageDir } from '../../../scripts/build/ensure-built.ts';
import { readConfig } from '../src/config.ts';

const DIR = packageDir('mcp-server');
const README = readFileSync(join(DIR, 'README.md'), 'utf8');
const section = README.slice(README.indexOf('## Configure your assistant'), README.indexOf('\n## ', README.indexOf('## Configure your assistant') + 1));
const jsonBlocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const shellLines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => (m[1] as string).trim());

interface ServerEntry {
  type?: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** What the packed tarball holds: its package.json and its file list. */
let packed: { manifest: { name: string; bin: Record<string, string> }; files: string[] };
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'engagekit-mcp-readme-'));
  execFileSync('pnpm', ['pack', '--pack-destination', work], { cwd: DIR, stdio: 'pipe' });
  const tarball = join(work, execFileSync('ls', [work], { encoding: 'utf8' }).trim());
  packed = {
    manifest: JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' })),
    files: execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, '')),
  };
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The command npx runs and the arguments it passes it: `npx -y -p A -p B bin args...` runs bin from A
 * or B; `npx -y pkg args...` runs the package's only bin.
 */
function npxTarget(args: string[]): { packages: string[]; bin: string | undefined; rest: string[] } {
  const packages: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-y' || a === '--yes') continue;
    if (a === '-p' || a === '--package') packages.push(args[++i] as string);
    else break;
  }
  if (packages.length === 0) return { packages: [args[i] as string], bin: undefined, rest: args.slice(i + 1) };
  return { packages, bin: args[i], rest: args.slice(i + 1) };
}

/** Checks one server entry: npx runs this package's command, whose file is packed, with flags it takes. */
function checkEntry(entry: ServerEntry) {
  expect(entry.command).toBe('npx');
  const { packages, bin, rest } = npxTarget(entry.args ?? []);
  expect(packages).toContain(packed.manifest.name);
  for (const p of packages) expect(['@engagekit/mcp-server', '@engagekit/mock-server']).toContain(p);
  const bins = Object.keys(packed.manifest.bin);
  if (bin === undefined) expect(bins).toHaveLength(1);
  else expect(bins).toContain(bin);
  const file = packed.manifest.bin[bin ?? (bins[0] as string)] as string;
  expect(packed.files).toContain(file.replace(/^\.\//, ''));
  expect(packed.files).toContain('dist/cli.js');
  // Placeholders the clients fill in (`${input:...}`, `${VAR}`) stand for a token here.
  const env = Object.fromEntries(Object.entries(entry.env ?? {}).map(([k, v]) => [k, v.includes('${') ? 'token-from-the-client' : v]));
  const config = readConfig(rest, env, () => '{}');
  expect(config.kind).toBe('serve');
}

describe('the README’s assistant configurations', () => {
  it('has a block for each of Claude Desktop, Cursor, VS Code and Claude Code', () => {
    for (const client of ['### Claude Desktop', '### Cursor', '### VS Code', '### Claude Code']) expect(section).toContain(client);
    expect(jsonBlocks.length).toBeGreaterThanOrEqual(4);
  });

  it('are valid JSON, each declaring a server that runs the packed package’s command with flags it takes', () => {
    for (const block of jsonBlocks) {
      const config = JSON.parse(block) as { mcpServers?: Record<string, ServerEntry>; servers?: Record<string, ServerEntry> };
      const servers = Object.values(config.mcpServers ?? config.servers ?? {});
      expect(servers.length, block).toBeGreaterThan(0);
      for (const entry of servers) checkEntry(entry);
    }
  });

  it('include a claude mcp add line that does the same', () => {
    const line = shellLines.find((l) => l.startsWith('claude mcp add '));
    expect(line).toBeDefined();
    const [before, after] = (line as string).split(' -- ');
    const env = Object.fromEntries([...(before as string).matchAll(/--env (\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    const [command, ...args] = (after as string).split(' ');
    checkEntry({ command: command as string, args, env: env as Record<string, string> });
  });
});
