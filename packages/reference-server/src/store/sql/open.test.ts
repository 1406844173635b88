import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findMigrationsFolder, migrationsFolder } from './open.ts';

describe('findMigrationsFolder', () => {
  it('finds the package’s drizzle folder from its sources', () => {
    expect(migrationsFolder).toBe(fileURLToPath(new URL('../../../drizzle', import.meta.url)));
  });

  it('finds it from a file in dist, as the built package runs', () => {
    const pkg = mkdtempSync(join(tmpdir(), 'engagekit-migrations-'));
    onTestFinished(() => rmSync(pkg, { recursive: true, force: true }));
    mkdirSync(join(pkg, 'drizzle', 'meta'), { recursive: true });
    writeFileSync(join(pkg, 'drizzle', 'meta', '_journal.json'), '{}');
    expect(findMigrationsFolder(join(pkg, 'dist', 'cli.js'))).toBe(join(pkg, 'drizzle'));
  });

  it('names the file it looked for when the migrations are missing', () => {
    const bare = mkdtempSync(join(tmpdir(), 'engagekit-no-migrations-'));
    onTestFinished(() => rmSync(bare, { recursive: true, force: true }));
    expect(() => findMigrationsFolder(join(bare, 'dist', 'store.js'))).toThrow(/drizzle\/meta\/_journal\.json/);
  });
});
