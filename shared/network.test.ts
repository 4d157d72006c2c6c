import { describe, expect, it } from 'vitest';
import { isLoopbackAddress } from './network';

describe('isLoopbackAddress', () => {
  it('knows 127.0.0.0/8, ::1 and 127/8 mapped into IPv6 in every spelling', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.3.4',
      '::1',
      '0:0:0:0:0:0:0:1',
      '0000:0000:0000:0000:0000:0000:0000:0001',
      '::ffff:127.0.0.1',
      '::FFFF:127.1.2.3',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:127.0.0.1',
    ]) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
  });

  it('refuses every other address, malformed text and nothing at all', () => {
    for (const address of [
      '10.0.0.1',
      '192.168.1.20',
      '128.0.0.1',
      '0.0.0.0',
      '::',
      '::2',
      '1::1',
      'fe80::1',
      'fe80::1%lo',
      '::ffff:192.168.1.20',
      '::ffff:10.127.0.1',
      '64:ff9b::127.0.0.1',
      '127.0.0',
      '127.0.0.256',
      '127.0.0.1.5',
      'localhost',
      '::1::1',
      '1:2:3:4:5:6:7:8:9',
      '',
      null,
      undefined,
    ]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
  });
});
