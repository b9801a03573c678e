// The vendor's license tool (`npm run license -- …`):
//   keygen [--out DIR]          an Ed25519 key pair: DIR/vendor-private.pem (keep it secret) and
//                               DIR/vendor-public.pem (give it to installations: IAM_LICENSE_PUBLIC_KEY
//                               or <data dir>/license-public.pem). DIR defaults to ./license-keys.
//   issue --key FILE --request CODE --licensee NAME --expires YYYY-MM-DD --users N
//                               prints a license for the request code an installation showed.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';

const { generateVendorKeys, signLicense } = await tsImport('../server/license/codec.ts', import.meta.url);

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    out: { type: 'string', default: 'license-keys' },
    key: { type: 'string' },
    request: { type: 'string' },
    licensee: { type: 'string' },
    expires: { type: 'string' },
    users: { type: 'string' },
  },
});

function fail(message) {
  console.error(message);
  process.exit(1);
}

if (command === 'keygen') {
  const privatePath = join(values.out, 'vendor-private.pem');
  if (existsSync(privatePath)) fail(`${privatePath} exists: refusing to overwrite a vendor key`);
  mkdirSync(values.out, { recursive: true });
  const { privateKey, publicKey } = generateVendorKeys();
  writeFileSync(privatePath, privateKey, { mode: 0o600 });
  writeFileSync(join(values.out, 'vendor-public.pem'), publicKey);
  console.log(`wrote ${privatePath} (secret) and ${join(values.out, 'vendor-public.pem')}`);
} else if (command === 'issue') {
  const { key, request, licensee, expires, users } = values;
  if (!key || !request || !licensee || !expires || !users) fail('issue needs --key --request --licensee --expires --users');
  const expiresAt = new Date(expires);
  if (Number.isNaN(expiresAt.getTime())) fail(`--expires: not a date: ${expires}`);
  const userLimit = Number(users);
  if (!Number.isInteger(userLimit) || userLimit < 1) fail(`--users: not a positive integer: ${users}`);
  const payload = { v: 1, licensee, requestCode: request.trim(), issuedAt: new Date().toISOString(), expiresAt: expiresAt.toISOString(), userLimit };
  console.log(signLicense(payload, readFileSync(key, 'utf8')));
} else {
  fail('usage: npm run license -- keygen [--out DIR] | issue --key FILE --request CODE --licensee NAME --expires YYYY-MM-DD --users N');
}
