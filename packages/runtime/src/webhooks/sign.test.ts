import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signedHeaders } from './sign.ts';

describe('signedHeaders', () => {
  it('reproduces the Standard Webhooks test vector', () => {
    const headers = signedHeaders(
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      '{"test": 2432232314}',
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      new Date(1_614_265_330_000),
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs with every secret, each verifiable by the reference implementation', () => {
    const secrets = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_c2Vjb25kLXNlY3JldC1vZi10aGlydHktdHdvIGJ5dGVz'];
    const at = new Date();
    const body = '{"id":"evt_1","type":"order.created"}';
    const headers = signedHeaders('evt_1', body, secrets, at);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of secrets) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
