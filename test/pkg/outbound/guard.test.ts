import { expect } from 'chai';
import { isPublicAddress } from '../../../pkg/outbound/guard.js';

describe('isPublicAddress', () => {
  it('accepts public IPv4 and global IPv6 addresses, also when embedded in IPv6', () => {
    for (const address of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(isPublicAddress(address), address).to.equal(true);
    }
  });

  it('refuses loopback, private, shared, link-local, reserved and multicast addresses', () => {
    const refused = [
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12::1',
      'fe80::1',
      'ff02::1',
      '2001:db8::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'localhost',
    ];
    for (const address of refused) expect(isPublicAddress(address), address).to.equal(false);
  });
});
