import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const whatsapp = {
  CHANNEL: 'whatsapp',
  WHATSAPP_ACCESS_TOKEN: 'EAAG-config-test',
  WHATSAPP_PHONE_NUMBER_ID: '1234567890',
  WHATSAPP_APP_SECRET: 'app-secret',
  WHATSAPP_VERIFY_TOKEN: 'verify-token',
};

describe('loadConfig with CHANNEL=whatsapp', () => {
  it('reads the app secret and verify token beside the access token and phone number id', () => {
    expect(loadConfig(whatsapp)).toMatchObject({ ...whatsapp, WHATSAPP_API_URL: 'https://graph.facebook.com/v21.0' });
  });

  it.each(['WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'])(
    'refuses to start without %s, naming it',
    (name) => {
      const env = { ...whatsapp, [name]: undefined };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(`  ${name}: is required when CHANNEL=whatsapp`);
    },
  );

  it('names every missing variable at once, an empty one counting as missing', () => {
    let message = '';
    try {
      loadConfig({ CHANNEL: 'whatsapp', WHATSAPP_ACCESS_TOKEN: 'EAAG', WHATSAPP_VERIFY_TOKEN: '' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'Invalid environment:',
      '  WHATSAPP_PHONE_NUMBER_ID: is required when CHANNEL=whatsapp',
      '  WHATSAPP_APP_SECRET: is required when CHANNEL=whatsapp',
      '  WHATSAPP_VERIFY_TOKEN: is required when CHANNEL=whatsapp',
    ]);
  });

  it('asks for none of them with the simulated channel', () => {
    expect(loadConfig({}).CHANNEL).toBe('simulated');
    expect(loadConfig({ CHANNEL: 'simulated' }).WHATSAPP_APP_SECRET).toBeUndefined();
  });
});

describe('WHATSAPP_STATUS_RETENTION_HOURS', () => {
  it('keeps statuses that find no message for 7 days by default, or the hours given', () => {
    expect(loadConfig({}).WHATSAPP_STATUS_RETENTION_HOURS).toBe(168);
    expect(loadConfig({ WHATSAPP_STATUS_RETENTION_HOURS: '24' }).WHATSAPP_STATUS_RETENTION_HOURS).toBe(24);
  });

  it.each(['0', '-1', '1.5', 'a week'])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ WHATSAPP_STATUS_RETENTION_HOURS: value })).toThrow(/WHATSAPP_STATUS_RETENTION_HOURS/);
  });
});
