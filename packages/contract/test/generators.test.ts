/**
 * openapi.yaml through the client generators integrators use: openapi-typescript with its default
 * flags, @hey-api/openapi-ts (types, SDK and zod validators) and orval in its zod mode (a fetch client,
 * zod models, every answer validated at runtime) generate without a warning, and what they generate,
 * with a program calling createCampaign with an ordinary body, typechecks under `strict`. The
 * validators hey-api and orval generate take what the server takes.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { strictTypecheck } from '../../../scripts/strict-typecheck.ts';

const pkg = new URL('..', import.meta.url).pathname;
// Inside the package, so the generated code finds the package's zod; ignored by git and biome.
const out = join(pkg, '.clients');
const bin = (name: string) => join(pkg, 'node_modules', '.bin', name);

async function run(file: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd: pkg, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    return { code: 0, output: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? 1, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** Lines a generator printed that warn or fail. */
const warnings = (output: string) => output.split('\n').filter((line) => /warn|error|⚠|✖|✗|deprecat/i.test(line));

/**
 * orval's zod mode: the fetch client validates every answer with the zod models it generates. Its
 * imports are written for the module resolution `strictTypecheck` uses.
 */
const orvalConfig = `import { defineConfig } from 'orval';

export default defineConfig({
  engagekit: {
    input: { target: '../../openapi.yaml' },
    output: {
      target: './client.ts',
      schemas: { path: './model', type: 'zod' },
      client: 'fetch',
      tsconfig: { compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } },
      override: { fetch: { runtimeValidation: true } },
    },
  },
});
`;

const usage = `import type { paths } from './openapi-typescript/paths';
import { createCampaign } from './hey-api/sdk.gen';
import { zNewCampaign } from './hey-api/zod.gen';
import { createCampaign as createCampaignWithOrval } from './orval/client';
import { NewCampaign as OrvalNewCampaign } from './orval/model';

type NewCampaign = paths['/agency/createCampaign']['post']['requestBody']['content']['application/json'];
// An ordinary body: the defaulted fields (language, header_variable, cards...) left out.
const body: NewCampaign = {
  name: 'spring',
  schedule_type: 'once',
  schedule: '2030-01-15T10:00:00+05:30',
  template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
};
export const send = () => createCampaign({ baseUrl: 'https://api.example', query: { uuid: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61' }, body });
export const checked = zNewCampaign.parse(body);
export const sendWithOrval = async () => {
  const answer = await createCampaignWithOrval(body, { uuid: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61' });
  return answer.status === 201 ? answer.data.data.name : answer.data.message;
};
export const checkedWithOrval = OrvalNewCampaign.parse(body);
`;

describe('client generators on openapi.yaml', () => {
  const generated: Record<string, { code: number; output: string }> = {};

  beforeAll(async () => {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(join(out, 'openapi-typescript'), { recursive: true });
    generated.openapiTypescript = await run(bin('openapi-typescript'), ['openapi.yaml', '-o', join(out, 'openapi-typescript', 'paths.ts')]);
    generated.heyApi = await run(bin('openapi-ts'), [
      '-i',
      'openapi.yaml',
      '-o',
      join(out, 'hey-api'),
      '-p',
      '@hey-api/client-fetch',
      '@hey-api/typescript',
      '@hey-api/sdk',
      'zod',
    ]);
    mkdirSync(join(out, 'orval'), { recursive: true });
    // Not a .ts file: the typecheck below takes every .ts file of the directory.
    writeFileSync(join(out, 'orval', 'orval.config.mjs'), orvalConfig);
    generated.orval = await run(bin('orval'), ['--config', join(out, 'orval', 'orval.config.mjs')]);
    writeFileSync(join(out, 'usage.ts'), usage);
  }, 120_000);

  it('openapi-typescript (default flags) generates without a warning', () => {
    expect(generated.openapiTypescript?.code, generated.openapiTypescript?.output).toBe(0);
    expect(warnings(generated.openapiTypescript?.output ?? '')).toEqual([]);
  });

  it('@hey-api/openapi-ts generates without a warning, and names nothing twice (no "2" suffixes)', () => {
    expect(generated.heyApi?.code, generated.heyApi?.output).toBe(0);
    expect(warnings(generated.heyApi?.output ?? '')).toEqual([]);
    const exported = ['types.gen.ts', 'zod.gen.ts', 'sdk.gen.ts'].flatMap((f) =>
      [...readFileSync(join(out, 'hey-api', f), 'utf8').matchAll(/^export (?:type|const) (\w+)/gm)].map((m) => m[1]),
    );
    expect(exported.length).toBeGreaterThan(100);
    expect(exported.filter((name) => /\D2$/.test(name ?? ''))).toEqual([]);
  });

  it('orval (zod mode, fetch client, runtime validation) generates without a warning, and defines every model it imports', () => {
    expect(generated.orval?.code, generated.orval?.output).toBe(0);
    expect(warnings(generated.orval?.output ?? '')).toEqual([]);
    const client = readFileSync(join(out, 'orval', 'client.ts'), 'utf8');
    const models = readFileSync(join(out, 'orval', 'model', 'index.ts'), 'utf8');
    expect(client).toContain('.parse(');
    expect(models).not.toMatch(/Response\.zod/);
  });

  it('what they generate, and a createCampaign call with an ordinary body, typechecks under strict', async () => {
    expect(await strictTypecheck(out)).toBe('');
  }, 120_000);

  it('hey-api’s and orval’s validators take a schedule with an offset, and refuse one without seconds, as the server does', async () => {
    const { zNewCampaign } = (await import(join(out, 'hey-api', 'zod.gen.ts'))) as { zNewCampaign: { safeParse(v: unknown): { success: boolean } } };
    const campaign = (schedule: string) => ({ name: 'n', schedule_type: 'once', schedule, template_payload: { template_name: 't' } });
    expect(zNewCampaign.safeParse(campaign('2030-01-15T10:00:00+05:30')).success).toBe(true);
    expect(zNewCampaign.safeParse(campaign('2030-01-15T10:00:00.250Z')).success).toBe(true);
    expect(zNewCampaign.safeParse(campaign('2030-01-15T10:00Z')).success).toBe(false);
    const { NewCampaign } = (await import(join(out, 'orval', 'model', 'newCampaign.zod.ts'))) as { NewCampaign: typeof zNewCampaign };
    expect(NewCampaign.safeParse(campaign('2030-01-15T10:00:00+05:30')).success).toBe(true);
    expect(NewCampaign.safeParse(campaign('2030-01-15T10:00Z')).success).toBe(false);
  });
});
