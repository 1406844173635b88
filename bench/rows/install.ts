/**
 * What users download: each install a user makes, from the packed tarballs, with npm into a fresh
 * project, beside `msw@3` alone in the same run (the peer a partner weighs the mock against). The
 * limits are the packaging test's (scripts/packaging/install-weight.ts), which holds the packages and
 * bytes; these rows add the install time, which only a side-by-side run can judge.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INSTALL_LIMITS,
  type InstallCase,
  type InstallWeight,
  MSW_PEER,
  measureInstall,
  megabytes,
  userInstalls,
} from '../../scripts/packaging/install-weight.ts';
import { packAll } from '../../scripts/packaging/pack.ts';
import { atMost, type Bench, median, row } from '../lib.ts';

/** Installs a side, this many times in turns with its peer: npm's time varies with the registry and the disk. */
const ROUNDS = 3;

/** The environment npm runs in: none of pnpm's variables, which would change what npm does. */
function npmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('npm_') || key.startsWith('PNPM_')) delete env[key];
  return env;
}

const mb = (bytes: number) => Math.round(megabytes(bytes) * 10) / 10;
const note = (w: InstallWeight[]) => `installs ${w.map((x) => `${x.seconds.toFixed(1)} s`).join(', ')}; ${w[0]?.packages} packages, ${mb(w[0]?.bytes ?? 0)} MB`;

export const installWeight: Bench = {
  id: 'install',
  async run() {
    const work = mkdtempSync(join(tmpdir(), 'engagekit-bench-install-'));
    try {
      mkdirSync(join(work, 'tarballs'));
      mkdirSync(join(work, 'projects'));
      const tarballs = packAll(join(work, 'tarballs'));
      const installs = userInstalls(tarballs);
      const env = npmEnv();
      const weigh = (c: InstallCase) => measureInstall(join(work, 'projects'), c, env);
      const runs: Record<'sdk' | 'msw' | 'mockAndSdk' | 'server', InstallWeight[]> = { sdk: [], msw: [], mockAndSdk: [], server: [] };
      for (let i = 0; i < ROUNDS; i++) for (const key of ['msw', 'mockAndSdk', 'sdk', 'server'] as const) runs[key].push(await weigh(installs[key]));
      const last = (key: keyof typeof runs) => runs[key].at(-1) as InstallWeight;
      const seconds = (key: keyof typeof runs) => median(runs[key].map((w) => w.seconds));
      const { sdk, mockAndSdk, server } = INSTALL_LIMITS;
      const installLine = (c: InstallCase) =>
        `npm install ${c.dev ? '-D ' : ''}of ${c.id.slice('install.'.length)} from the packed tarballs into a fresh project`;
      return [
        row({
          id: 'install.mock+sdk',
          metric: `${installLine(installs.mockAndSdk)}: node_modules bytes (du -sb) against ${MSW_PEER} alone, same run`,
          ours: mb(last('mockAndSdk').bytes),
          peer: mb(last('msw').bytes),
          unit: 'MB',
          better: 'lower',
          goal: atMost(mockAndSdk.maxBytesVsMsw),
          note: `ours: ${note(runs.mockAndSdk)}; ${MSW_PEER}: ${note(runs.msw)}`,
        }),
        row({
          id: 'install.mock+sdk.packages',
          metric: `${installLine(installs.mockAndSdk)}: packages (npm ls --all --parseable)`,
          ours: last('mockAndSdk').packages,
          peer: mockAndSdk.maxPackages,
          unit: 'packages',
          better: 'lower',
          goal: atMost(1, `limit ${mockAndSdk.maxPackages}`),
          note: `${MSW_PEER} alone: ${last('msw').packages} packages`,
        }),
        row({
          id: 'install.mock+sdk.seconds',
          metric: `${installLine(installs.mockAndSdk)}: npm install wall time against ${MSW_PEER} alone, median of ${ROUNDS} in turns`,
          ours: Math.round(seconds('mockAndSdk') * 10) / 10,
          peer: Math.round(seconds('msw') * 10) / 10,
          unit: 's',
          better: 'lower',
          goal: atMost(mockAndSdk.maxSecondsVsMsw),
        }),
        row({
          id: 'install.server',
          metric: `${installLine(installs.server)}: node_modules bytes (du -sb), against a limit`,
          ours: mb(last('server').bytes),
          peer: megabytes(server.maxBytes),
          unit: 'MB',
          better: 'lower',
          goal: atMost(1, `limit ${megabytes(server.maxBytes)} MB`),
          note: note(runs.server),
        }),
        row({
          id: 'install.server.packages',
          metric: `${installLine(installs.server)}: packages (npm ls --all --parseable), against a limit`,
          ours: last('server').packages,
          peer: server.maxPackages,
          unit: 'packages',
          better: 'lower',
          goal: atMost(1, `limit ${server.maxPackages}`),
        }),
        row({
          id: 'install.sdk',
          metric: `${installLine(installs.sdk)}: node_modules bytes (du -sb), against a limit`,
          ours: mb(last('sdk').bytes),
          peer: megabytes(sdk.maxBytes),
          unit: 'MB',
          better: 'lower',
          goal: atMost(1, `limit ${megabytes(sdk.maxBytes)} MB`),
          note: note(runs.sdk),
        }),
        row({
          id: 'install.sdk.packages',
          metric: `${installLine(installs.sdk)}: packages (npm ls --all --parseable), against a limit`,
          ours: last('sdk').packages,
          peer: sdk.maxPackages,
          unit: 'packages',
          better: 'lower',
          goal: atMost(1, `limit ${sdk.maxPackages}`),
        }),
      ];
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};

export const benches: Bench[] = [installWeight];
