/**
 * Every TypeScript code block of every package README (`packages/*\/README.md`, found by glob, so a
 * package added later is checked too) typechecks under `strict` against the packages as built, as a
 * user's file importing them would: a README that names a function, an option or a field the package
 * does not have fails here, as the API reference's code samples do (packages/sdk/test/code-samples.test.ts).
 *
 * Each block is a module of its own, in a directory inside its package (so the package's name resolves
 * to its own exports and dist, and its dependencies resolve), with Node's and Vitest's global types.
 * Blocks in another language are skipped; a block must name its language. A TypeScript block that is
 * deliberately a fragment says so in its info string, ```` ```ts fragment ````, and is skipped too.
 */
import { globSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './build/ensure-built.ts';
import { strictTypecheck } from './strict-typecheck.ts';

/** Languages typechecked. */
const TYPESCRIPT = new Set(['ts', 'typescript', 'mts', 'cts']);
/** Languages skipped: everything else must be added here, so no TypeScript hides under another name. */
const NOT_TYPESCRIPT = new Set(['sh', 'bash', 'shell', 'console', 'json', 'jsonc', 'yaml', 'yml', 'text', 'txt', 'html', 'http', 'diff', 'ini', 'toml', 'sql']);
/** The info-string word that opts a TypeScript block out. */
const FRAGMENT = 'fragment';

/** A fenced code block: its language, the rest of its info string, the line it starts on, and its code. */
interface CodeBlock {
  lang: string;
  flags: string[];
  line: number;
  code: string;
}

/** The fenced code blocks (``` or ~~~, three or more) of a Markdown text. */
function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, fence = '', info = ''] = open;
    const [lang = '', ...flags] = info.trim().split(/\s+/).filter(Boolean);
    const start = i;
    // A closing fence is the opening's character, at least as many of them, and nothing else.
    const closes = (line: string) => line.trim().length >= fence.length && line.trim() === fence.charAt(0).repeat(line.trim().length);
    const code: string[] = [];
    for (i++; i < lines.length && !closes(lines[i] ?? ''); i++) code.push(lines[i] ?? '');
    blocks.push({ lang: lang.toLowerCase(), flags, line: start + 1, code: code.join('\n') });
  }
  return blocks;
}

const READMES = globSync('packages/*/README.md', { cwd: ROOT }).sort();

describe('codeBlocks', () => {
  it('reads each fenced block with its language, flags and first line', () => {
    const md = ['# x', '```ts', 'const a = 1;', '```', '', '````ts fragment', '```', '````', '~~~sh', 'ls', '~~~', '```', 'plain', '```'].join('\n');
    expect(codeBlocks(md)).toEqual([
      { lang: 'ts', flags: [], line: 2, code: 'const a = 1;' },
      { lang: 'ts', flags: ['fragment'], line: 6, code: '```' },
      { lang: 'sh', flags: [], line: 9, code: 'ls' },
      { lang: '', flags: [], line: 12, code: 'plain' },
    ]);
  });
});

describe('the package READMEs', () => {
  beforeAll(() => ensureBuilt(), 600_000);

  it('are found by glob, every package with one', () => {
    expect(READMES.length).toBeGreaterThanOrEqual(4);
    expect(READMES).toContain(join('packages', 'sdk', 'README.md'));
  });

  it.each(READMES)('%s: every code block names its language', (readme) => {
    const unnamed = codeBlocks(readFileSync(join(ROOT, readme), 'utf8'))
      .filter((b) => !TYPESCRIPT.has(b.lang) && !NOT_TYPESCRIPT.has(b.lang))
      .map((b) => `line ${b.line}: ${b.lang ? `"${b.lang}" is neither TypeScript nor a language skipped here` : 'no language'}`);
    expect(unnamed).toEqual([]);
  });

  it.each(READMES)(
    '%s: every TypeScript block typechecks under strict against the built packages',
    async (readme) => {
      const blocks = codeBlocks(readFileSync(join(ROOT, readme), 'utf8')).filter((b) => TYPESCRIPT.has(b.lang) && !b.flags.includes(FRAGMENT));
      // Inside the package: its name resolves to itself, and what it depends on resolves too.
      const out = join(ROOT, dirname(readme), '.readme-code');
      rmSync(out, { recursive: true, force: true });
      mkdirSync(out, { recursive: true });
      // Named after the README line, so an error points at it; `export {}` makes every block a module.
      for (const b of blocks) writeFileSync(join(out, `README.md-line-${b.line}.ts`), `${b.code}\nexport {};\n`);
      try {
        expect(blocks.length === 0 ? '' : await strictTypecheck(out, ['vitest/globals'])).toBe('');
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
