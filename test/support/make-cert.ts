// Creates, once, the certificate the tests' loopback HTTPS servers present. It is also the CA the
// product trusts during tests (NODE_EXTRA_CA_CERTS), so it is self-signed and marked as a CA.
// Usage: node dist/test/support/make-cert.js <dir>   (writes <dir>/cert.pem and <dir>/key.pem)
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_MS, selfSignedCa } from './certificate.js';

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
  const pems = await selfSignedCa({ commonName: 'localhost', dns: ['localhost'], ips: ['127.0.0.1', '::1'], days: 825 });
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyPath, pems.key, { mode: 0o600 });
  writeFileSync(certPath, pems.cert);
  console.log(`wrote ${certPath} and ${keyPath}`);
}
