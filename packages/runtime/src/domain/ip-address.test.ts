import { describe, expect, it } from 'vitest';
import { nonGlobalReason, parseIp } from './ip-address.ts';

describe('parseIp', () => {
  it('reads IPv4, and IPv6 in its compressed, full, bracketed, zoned and IPv4-tailed forms', () => {
    expect(parseIp('192.168.1.1')).toEqual({ version: 4, value: 0xc0a80101 });
    const mapped = { version: 6, groups: [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1] };
    expect(parseIp('::ffff:127.0.0.1')).toEqual(mapped);
    expect(parseIp('[::ffff:7f00:1]')).toEqual(mapped);
    expect(parseIp('0:0:0:0:0:ffff:7f00:1')).toEqual(mapped);
    expect(parseIp('::1.2.3.4')).toEqual({ version: 6, groups: [0, 0, 0, 0, 0, 0, 0x102, 0x304] });
    expect(parseIp('2002:7f00:1::')).toEqual({ version: 6, groups: [0x2002, 0x7f00, 1, 0, 0, 0, 0, 0] });
    expect(parseIp('fe80::1%eth0')).toEqual({ version: 6, groups: [0xfe80, 0, 0, 0, 0, 0, 0, 1] });
    expect(parseIp('::')).toEqual({ version: 6, groups: [0, 0, 0, 0, 0, 0, 0, 0] });
  });

  it('gives null for host names and malformed addresses', () => {
    for (const text of ['example.com', '1.2.3', '1.2.3.256', '1::2::3', ':1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '12345::', '::ffff:1.2.3', 'g::1']) {
      expect(parseIp(text), text).toBeNull();
    }
  });
});

describe('nonGlobalReason', () => {
  it('refuses the IPv6 forms of private IPv4 addresses, judged as the IPv4 address they embed', () => {
    expect(nonGlobalReason('::ffff:7f00:1')).toBe('the IPv4-mapped form of 127.0.0.1, loopback');
    expect(nonGlobalReason('::ffff:169.254.169.254')).toMatch(/^the IPv4-mapped form of 169\.254\.169\.254, link-local/);
    expect(nonGlobalReason('::ffff:10.0.0.1')).toBe('the IPv4-mapped form of 10.0.0.1, private');
    expect(nonGlobalReason('::ffff:c0a8:101')).toBe('the IPv4-mapped form of 192.168.1.1, private');
    expect(nonGlobalReason('::7f00:1')).toBe('the IPv4-compatible form of 127.0.0.1, loopback');
    expect(nonGlobalReason('64:ff9b::7f00:1')).toBe('the NAT64 form (64:ff9b::/96) of 127.0.0.1, loopback');
    expect(nonGlobalReason('2002:7f00:1::')).toBe('the 6to4 form (2002::/16) of 127.0.0.1, loopback');
    expect(nonGlobalReason('2002:a00:1:1234::5')).toBe('the 6to4 form (2002::/16) of 10.0.0.1, private');
  });

  it('refuses every IPv6 address outside global unicast, and the special ranges inside it', () => {
    for (const [address, reason] of [
      ['::', /unspecified/],
      ['::1', /loopback/],
      ['fec0::1', /site-local/],
      ['fc00::1', /unique local/],
      ['fd12:3456::1', /unique local/],
      ['fe80::1', /link-local/],
      ['ff02::1', /multicast/],
      ['64:ff9b:1::a00:1', /local-use NAT64/],
      ['::ffff:0:a00:1', /outside 2000::\/3/],
      ['100::1', /outside 2000::\/3/],
      ['2001::1', /Teredo/],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
      ['2001:2::1', /2001::\/23/],
      ['2001:10::1', /2001::\/23/],
      ['2001:db8::1', /documentation/],
      ['3fff::1', /documentation/],
    ] as const) {
      expect(nonGlobalReason(address), address).toMatch(reason);
    }
  });

  it('refuses IPv4 addresses that are not global unicast', () => {
    for (const address of [
      '0.0.0.0',
      '10.255.0.1',
      '100.64.0.1',
      '127.1.2.3',
      '169.254.169.254',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.88.99.1',
      '192.168.0.1',
      '198.19.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
    ]) {
      expect(nonGlobalReason(address), address).not.toBeNull();
    }
  });

  it('takes global unicast addresses, and IPv6 forms that embed a global IPv4 address', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4007:80e::200e',
      '2001:200::1',
      '2001:db9::1',
      '3fff:1000::1',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect(nonGlobalReason(address), address).toBeNull();
    }
  });

  it('gives null for a host name, which is judged by what it resolves to', () => {
    expect(nonGlobalReason('hooks.example.com')).toBeNull();
  });
});
