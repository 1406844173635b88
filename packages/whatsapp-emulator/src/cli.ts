#!/usr/bin/env node
/**
 * `engagekit-whatsapp-emulator`: the emulator over HTTP. Prints a line containing
 * `listening on http://HOST:PORT`; SIGTERM and SIGINT stop it and exit 0. Bad flags exit 2.
 */
import { CliUsageError, parseCli, USAGE } from './cli-options.ts';
import { createWhatsAppEmulator, type WhatsAppEmulator } from './emulator.ts';
import { EmulatorOptionsError } from './options.ts';

let emulator: WhatsAppEmulator;
try {
  const options = parseCli(process.argv.slice(2), process.env);
  if (options === null) {
    console.log(USAGE);
    process.exit(0);
  }
  emulator = await createWhatsAppEmulator(options);
} catch (e) {
  if (!(e instanceof CliUsageError || e instanceof EmulatorOptionsError)) throw e;
  console.error(e.message);
  process.exit(2);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 5_000);
    force.unref();
    await emulator.close();
    process.exit(0);
  });
}

const { callbackUrl } = emulator.state().settings;
console.log(`phone number id ${emulator.phoneNumberId}, WABA id ${emulator.wabaId}, access token ${emulator.accessToken}`);
console.log(
  `webhooks: ${callbackUrl ?? 'no callback URL yet (PATCH /__emulator/settings {"callbackUrl": ...})'}, signed with the app secret ${emulator.appSecret}`,
);
console.log(`Graph API base (WHATSAPP_API_URL): ${emulator.apiUrl}; control API: ${emulator.url}/__emulator`);
// Last, with the signals handled: a caller that stops it as soon as it reads this line gets exit code 0.
console.log(`engagekit WhatsApp emulator listening on ${emulator.url}`);
