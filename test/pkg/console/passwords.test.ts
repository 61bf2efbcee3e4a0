import { expect } from 'chai';
import { hashPassword, verifyPassword } from '../../../pkg/console/passwords.js';

describe('Console passwords', () => {
  it('are hashed with scrypt N=2^15, r=8, p=1 and a salt of their own', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery staple'), hashPassword('correct horse battery staple')]);

    expect(a).to.match(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.to.equal(b);
    expect(a).not.to.include('correct horse');
  });

  it('verify the password they were made from and no other', async () => {
    const stored = await hashPassword('correct horse battery staple');

    expect(await verifyPassword('correct horse battery staple', stored)).to.equal(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).to.equal(false);
    expect(await verifyPassword('', stored)).to.equal(false);
    expect(await verifyPassword('correct horse battery staple', 'not a hash')).to.equal(false);
  });

  it('still verify a hash made with other parameters, as written in it', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const [, , , , salt] = stored.split('$');
    const { scryptSync } = await import('node:crypto');
    const older = [
      'scrypt',
      2 ** 14,
      8,
      1,
      salt,
      scryptSync('correct horse battery staple', Buffer.from(salt!, 'base64url'), 32, { N: 2 ** 14 }).toString('base64url'),
    ].join('$');

    expect(await verifyPassword('correct horse battery staple', older)).to.equal(true);
    expect(await verifyPassword('wrong horse battery staple', older)).to.equal(false);
  });
});
