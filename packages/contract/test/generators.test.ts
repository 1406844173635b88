/**
 * openapi.yaml through the client generators integrators use: openapi-typescript with its default
 * flags and @hey-api/openapi-ts (types, SDK and zod validators) generate without a warning, and what
 * they generate, with a program calling createCampaign with an ordinary body, typechecks under
 * `strict`. The validators hey-api generates take what the server takes.
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

const usage = `import type { paths } from './openapi-typescript/paths';
import { createCampaign } from './hey-api/sdk.gen';
import { zNewCampaign } from './hey-api/zod.gen';

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

  it('what both generate, and a createCampaign call with an ordinary body, typechecks under strict', async () => {
    expect(await strictTypecheck(out)).toBe('');
  }, 120_000);

  it('hey-api’s validators take a schedule with an offset, and refuse one without seconds, as the server does', async () => {
    const { zNewCampaign } = (await import(join(out, 'hey-api', 'zod.gen.ts'))) as { zNewCampaign: { safeParse(v: unknown): { success: boolean } } };
    const campaign = (schedule: string) => ({ name: 'n', schedule_type: 'once', schedule, template_payload: { template_name: 't' } });
    expect(zNewCampaign.safeParse(campaign('2030-01-15T10:00:00+05:30')).success).toBe(true);
    expect(zNewCampaign.safeParse(campaign('2030-01-15T10:00:00.250Z')).success).toBe(true);
    expect(zNewCampaign.safeParse(campaign('2030-01-15T10:00Z')).success).toBe(false);
  });
});
