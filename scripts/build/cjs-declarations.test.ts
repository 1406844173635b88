import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchFiles } from '../scratch-files.ts';
import { asCjsDeclaration, writeCjsDeclarations } from './cjs-declarations.ts';

describe('asCjsDeclaration', () => {
  it("makes relative .js imports .cjs, in import, export, bare imports and import() types, and leaves packages' imports and comments alone", () => {
    const text = [
      "import { A as Api } from './index-Bx1.js';",
      "import './errors-D3.js';",
      'export { E as EngageError } from "./errors-D3.js";',
      "export * from '../shared/x.js';",
      "declare const c: import('./index-Bx1.js').Api;",
      "import { Client } from 'openapi-fetch';",
      "import type { Z } from 'zod/v4/core.js';",
      "/** Loads ./not-an-import.js, as in: import { x } from './not-an-import.js' */",
    ].join('\n');
    expect(asCjsDeclaration(text)).toBe(
      [
        "import { A as Api } from './index-Bx1.cjs';",
        "import './errors-D3.cjs';",
        'export { E as EngageError } from "./errors-D3.cjs";',
        "export * from '../shared/x.cjs';",
        "declare const c: import('./index-Bx1.cjs').Api;",
        "import { Client } from 'openapi-fetch';",
        "import type { Z } from 'zod/v4/core.js';",
        "/** Loads ./not-an-import.js, as in: import { x } from './not-an-import.js' */",
      ].join('\n'),
    );
  });
});

describe('writeCjsDeclarations', () => {
  it('writes a .d.cts for each CommonJS entry and every chunk it reaches, and none for an ESM-only entry', () => {
    const dir = scratchFiles('engagekit-cjs-declarations-', {
      'index.cjs': '',
      'index.js': '',
      'index.d.ts': "import { S } from './shared-Ab12.js';\nexport type { S };\n",
      'admin.cjs': '',
      'admin.d.ts': "import './side-Gh78.js';\nexport { T } from './chunks/types-Cd34.js';\n",
      // Reached only by a bare import, as the declaration bundler writes one for a chunk's side effects.
      'side-Gh78.d.ts': 'export {};\n',
      'chunks/types-Cd34.d.ts': "import { S } from '../shared-Ab12.js';\ninterface T { s: S }\nexport type { T };\n",
      'shared-Ab12.d.ts': 'interface S { a: string }\nexport type { S };\n',
      // A chunk of the CommonJS build: JavaScript only.
      'chunk-XYZ.cjs': '',
      // An entry only the ESM build has (browsers).
      'browser.js': '',
      'browser.d.ts': "import { S } from './shared-Ab12.js';\nexport type { S };\nexport declare const only: 'esm';\n",
      'browser-only-Ef56.d.ts': 'export {};\n',
    });
    expect(writeCjsDeclarations(dir)).toEqual(['admin.d.cts', 'chunks/types-Cd34.d.cts', 'index.d.cts', 'shared-Ab12.d.cts', 'side-Gh78.d.cts']);
    expect(readFileSync(join(dir, 'admin.d.cts'), 'utf8')).toBe("import './side-Gh78.cjs';\nexport { T } from './chunks/types-Cd34.cjs';\n");
    expect(readFileSync(join(dir, 'chunks/types-Cd34.d.cts'), 'utf8')).toBe(
      "import { S } from '../shared-Ab12.cjs';\ninterface T { s: S }\nexport type { T };\n",
    );
    expect(existsSync(join(dir, 'browser.d.cts'))).toBe(false);
    expect(existsSync(join(dir, 'browser-only-Ef56.d.cts'))).toBe(false);
  });
});
