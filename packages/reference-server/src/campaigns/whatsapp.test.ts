import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { renderTemplate } from '../../../runtime/src/domain/render.ts';
import { freePort } from '../../test/helpers.ts';
import { createWhatsAppChannel } from './whatsapp.ts';

const customer = { firstName: 'Asha', lastName: 'Rao', name: 'Asha Rao', phoneNumber: '+919800000001', email: null };
/** Which campaign, run and customer a message is for. */
const about = { messageId: 'msg_1', campaignId: 'cmp_1', runKey: '2026-01-05T09:00:00.000Z', customerId: 'cus_1' };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the WhatsApp Cloud API channel', () => {
  it('posts the template message the Cloud API expects, and maps its answers', async () => {
    const requests: { url: string; auth: string | undefined; body: unknown }[] = [];
    let answer = {
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: '919800000001', wa_id: '919800000001' }], messages: [{ id: 'wamid.HBgM' }] } as unknown,
    };
    const fake = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        requests.push({ url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw) });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', ok));
    cleanups.push(() => new Promise((ok) => fake.close(ok)));
    const channel = createWhatsAppChannel({
      accessToken: 'EAAG-test',
      phoneNumberId: '1234567890',
      baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}/v21.0`,
    });
    const template = renderTemplate(
      {
        template_name: 'carousel_offer',
        language: 'en_US',
        header_variable: ['city'],
        body_variable: ['first_name'],
        variables: { city: 'Pune', first_name: '{{customer.firstName}}' },
        cards: [{ card_image_url: 'https://example.com/image1.jpg', card_body_variables: ['10%'] }],
      },
      customer,
    );
    const result = await channel.send({ to: '+919800000001', template, key: 'k', ...about });
    expect(result).toEqual({ status: 'sent', providerMessageId: 'wamid.HBgM', error: null });
    expect(requests[0]).toEqual({
      url: '/v21.0/1234567890/messages',
      auth: 'Bearer EAAG-test',
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '919800000001',
        type: 'template',
        template: {
          name: 'carousel_offer',
          language: { code: 'en_US' },
          components: [
            { type: 'header', parameters: [{ type: 'text', text: 'Pune' }] },
            { type: 'body', parameters: [{ type: 'text', text: 'Asha' }] },
            {
              type: 'carousel',
              cards: [
                {
                  card_index: 0,
                  components: [
                    { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/image1.jpg' } }] },
                    { type: 'body', parameters: [{ type: 'text', text: '10%' }] },
                  ],
                },
              ],
            },
          ],
        },
        biz_opaque_callback_data: 'msg_1',
      },
    });
    answer = { status: 400, body: { error: { message: '(#132001) Template name does not exist in the translation', code: 132001 } } };
    expect(await channel.send({ to: '+919800000001', template, key: 'k2', ...about })).toEqual({
      status: 'failed',
      providerMessageId: null,
      error: 'WhatsApp answered 400: (#132001) Template name does not exist in the translation (code 132001)',
      errorCode: 132001,
      failure: { httpStatus: 400, code: 132001, mayHaveReached: true },
      retryAfterMs: null,
    });
    expect(requests[1]?.body).toMatchObject({ biz_opaque_callback_data: 'msg_1' });
    answer = { status: 502, body: 'Bad Gateway' };
    expect(await channel.send({ to: '+919800000001', template, key: 'k4', ...about, messageId: 'msg_4' })).toEqual({
      status: 'failed',
      providerMessageId: null,
      error: 'WhatsApp answered 502: no error message',
      errorCode: null,
      failure: { httpStatus: 502, code: null, mayHaveReached: true },
      retryAfterMs: null,
    });
    expect(requests[2]?.body).toMatchObject({ biz_opaque_callback_data: 'msg_4' });
    // Nothing listens on the port: the request never left, so it may be sent again.
    const down = createWhatsAppChannel({ accessToken: 'x', phoneNumberId: '1', baseUrl: `http://127.0.0.1:${await freePort()}/v21.0` });
    expect(await down.send({ to: '+919800000001', template, key: 'k3', ...about })).toMatchObject({
      error: expect.stringMatching(/^WhatsApp did not answer/),
      failure: { httpStatus: null, code: null, mayHaveReached: false },
    });
  });

  it("reads a throttle's Retry-After, and counts a connection lost after the request as one that may have reached WhatsApp", async () => {
    let mode: 'throttle' | 'hang up' = 'throttle';
    const fake = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (mode === 'hang up') return req.socket.destroy();
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
        res.end(JSON.stringify({ error: { message: '(#130429) Rate limit hit', code: 130429 } }));
      });
    });
    await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', ok));
    cleanups.push(() => new Promise((ok) => fake.close(ok)));
    const channel = createWhatsAppChannel({
      accessToken: 'x',
      phoneNumberId: '1',
      baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}/v21.0`,
    });
    const template = renderTemplate({ template_name: 'hello', language: 'en', header_variable: [], body_variable: [], variables: {} }, customer);
    expect(await channel.send({ to: '+919800000001', template, key: 'k', ...about })).toMatchObject({
      errorCode: 130429,
      failure: { httpStatus: 429, code: 130429, mayHaveReached: true },
      retryAfterMs: 7000,
    });
    mode = 'hang up';
    expect(await channel.send({ to: '+919800000001', template, key: 'k', ...about })).toMatchObject({
      failure: { httpStatus: null, code: null, mayHaveReached: true },
    });
  });
});
