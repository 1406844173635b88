/**
 * Part of the build: copies Scalar's standalone browser bundle (a devDependency) into dist/docs, so
 * the package serves /docs offline without any Scalar package among its dependencies.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const dir = join(import.meta.dirname, '..');
// The package exports no path to its bundle: find its directory from its resolved entry.
let scalar = dirname(createRequire(join(dir, 'package.json')).resolve('@scalar/api-reference'));
while (!existsSync(join(scalar, 'package.json'))) scalar = dirname(scalar);
mkdirSync(join(dir, 'dist', 'docs'), { recursive: true });
copyFileSync(join(scalar, 'dist', 'browser', 'standalone.js'), join(dir, 'dist', 'docs', 'scalar.js'));
