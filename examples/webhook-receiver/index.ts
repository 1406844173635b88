/**
 * Run it: `ENGAGEKIT_WEBHOOK_SECRET=whsec_... PORT=8080 pnpm --filter @engagekit/example-webhook-receiver start`
 * from the repository root, then register `http://<this host>:8080/` as a webhook endpoint.
 */
import { startWebhookReceiver } from './receiver.ts';

const secret = process.env.ENGAGEKIT_WEBHOOK_SECRET;
if (!secret) {
  console.error('Set ENGAGEKIT_WEBHOOK_SECRET to the endpoint secret (whsec_...) from the admin API or /settings.');
  process.exit(2);
}
const receiver = await startWebhookReceiver({
  secret,
  port: Number(process.env.PORT ?? 8080),
  host: process.env.HOST ?? '127.0.0.1',
  handle: (event) => {
    const { order } = event.data;
    console.log(`${event.type} ${order.company_order_id}: ${order.firstName} ${order.phoneNumber}, total ${order.totalAmount} (v${order.version})`);
  },
});
console.log(`webhook receiver listening on ${receiver.url}`);

// Ctrl-C or a supervisor's SIGTERM: stop taking deliveries, let those under way finish, exit 0. The handler
// stays for the whole close: under `pnpm start` a Ctrl-C arrives twice (the terminal's, then the one pnpm
// forwards), and the second must not kill the process half-way.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await receiver.close();
    process.exit(0);
  });
}
