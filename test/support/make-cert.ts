// Creates, once, the certificate the tests' loopback HTTPS servers present. It is also the CA the
// product trusts during tests (NODE_EXTRA_CA_CERTS), so it is self-signed and marked as a CA.
// Usage: node dist/test/support/make-cert.js <dir>   (writes <dir>/cert.pem and <dir>/key.pem)
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

const DAY_MS = 86_400_000;

const dir = process.argv[2];
if (!dir) {
  console.error('usage: make-cert.js <dir>');
  process.exit(2);
}
const certPath = join(dir, 'cert.pem');
const keyPath = join(dir, 'key.pem');

// Regenerated when it would expire within a day, so a long-lived checkout keeps working.
const present = existsSync(certPath) && existsSync(keyPath);
if (!present || Date.parse(new X509Certificate(readFileSync(certPath)).validTo) < Date.now() + DAY_MS) {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - DAY_MS),
    notAfterDate: new Date(Date.now() + 825 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  writeFileSync(certPath, pems.cert);
  console.log(`wrote ${certPath} and ${keyPath}`);
}
