import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCli } from './cli-options.ts';

describe('parseCli', () => {
  it('takes flags over environment variables over the config file, over the defaults', () => {
    const config = join(tmpdir(), `whatsapp-emulator-config-${process.pid}.json`);
    writeFileSync(config, JSON.stringify({ readMs: 1, deliveredMs: 2, sentMs: 3, templates: [{ name: 'hello' }] }));
    const options = parseCli(['--config', config, '--read-ms', '10', '--pair-burst=9', '--accept-any-template'], {
      WHATSAPP_EMULATOR_READ_MS: '20',
      WHATSAPP_EMULATOR_DELIVERED_MS: '30',
      WHATSAPP_EMULATOR_RETRY_SCHEDULE: '5, 50',
    });
    expect(options).toMatchObject({
      port: 4030,
      readMs: 10,
      deliveredMs: 30,
      sentMs: 3,
      templates: [{ name: 'hello' }],
      pairRate: { intervalMs: 6000, burst: 9 },
      retrySchedule: [5, 50],
      acceptAnyTemplate: true,
    });
  });

  it('is null for --help, and a CliUsageError naming a bad flag or value', () => {
    expect(parseCli(['--help'], {})).toBeNull();
    expect(() => parseCli(['--port'], {})).toThrow(/--port needs a value/);
    expect(() => parseCli(['--port', 'x'], {})).toThrow(CliUsageError);
    expect(() => parseCli([], { WHATSAPP_EMULATOR_MESSAGES_PER_SECOND: '-1' })).toThrow(
      /WHATSAPP_EMULATOR_MESSAGES_PER_SECOND \(--messages-per-second\) must be a whole number/,
    );
    expect(() => parseCli(['--config', '/nonexistent/emulator.json'], {})).toThrow(/cannot be read/);
  });
});
