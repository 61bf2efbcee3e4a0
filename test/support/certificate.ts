// A certificate that is its own CA: what the tests' servers present (make-cert.ts) and what the
// e2e cluster's API server presents, so that trusting it is trusting the one certificate.
import { generate } from 'selfsigned';

export const DAY_MS = 86_400_000;

export interface SelfSignedCa {
  commonName: string;
  dns: string[];
  ips: string[];
  days: number;
}

/** PEMs of a new EC certificate for `dns` and `ips`, valid from a day ago for `days`. */
export async function selfSignedCa({ commonName, dns, ips, days }: SelfSignedCa): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - DAY_MS),
    notAfterDate: new Date(Date.now() + days * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...dns.map((value) => ({ type: 2 as const, value })), ...ips.map((ip) => ({ type: 7 as const, ip }))],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
