// Private targets only through the operator's explicit allow-list (IAM_OUTBOUND_ALLOW: host names,
// addresses, CIDR ranges), never link-local or cloud metadata addresses even when listed or with the
// deprecated IAM_OUTBOUND_ALLOW_PRIVATE=1; an entry that is none of those stops the start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOutboundUrl, OutboundAddressError } from '../../server/http/outbound-address';
import { resolveConfig } from '../../server/config';

/** A resolver answering `address` for every name. */
const resolvesTo = (address: string) => async () => [{ address, family: address.includes(':') ? 6 : 4 }];

async function refused(url: string, options: Parameters<typeof checkOutboundUrl>[1]): Promise<boolean> {
  try {
    await checkOutboundUrl(url, options);
    return false;
  } catch (error) {
    if (error instanceof OutboundAddressError) return true;
    throw error;
  }
}

test('a private target passes only when its range or its host name is listed', async () => {
  assert.equal(await refused('http://10.1.2.3/hook', {}), true);
  assert.equal(await refused('http://10.1.2.3/hook', { allow: ['10.0.0.0/8'] }), false);
  assert.equal(await refused('http://192.168.1.5/hook', { allow: ['10.0.0.0/8'] }), true);
  assert.equal(await refused('http://hooks.internal/x', { allow: ['hooks.internal'], lookup: resolvesTo('10.9.9.9') }), false);
  assert.equal(await refused('http://other.internal/x', { allow: ['hooks.internal'], lookup: resolvesTo('10.9.9.9') }), true);
  const target = await checkOutboundUrl('http://10.1.2.3/hook', { allow: ['10.0.0.0/8'] });
  assert.equal(target.private, true, 'marked private, so its answer is for platform administrators only');
});

test('link-local and metadata addresses are refused even when listed, and with the deprecated switch', async () => {
  for (const [url, allow] of [
    ['http://169.254.169.254/latest/meta-data/', ['169.254.0.0/16']],
    ['http://[fe80::1]/', ['fe80::/10']],
    ['http://[fd00:ec2::254]/', ['fd00::/8', 'fd00:ec2::254']],
    ['http://[::ffff:169.254.169.254]/', ['0.0.0.0/0']],
  ] as const) {
    assert.equal(await refused(url, { allow }), true, `${url} listed`);
    assert.equal(await refused(url, { allowPrivate: true }), true, `${url} with IAM_OUTBOUND_ALLOW_PRIVATE`);
  }
  assert.equal(await refused('http://metadata.internal/', { allow: ['metadata.internal'], lookup: resolvesTo('169.254.169.254') }), true);
});

test('IAM_OUTBOUND_ALLOW is read from the environment, and a wrong entry stops the start', () => {
  const base = { IAM_DATA_DIR: '/tmp/iam-outbound-allow-test' };
  assert.deepEqual(resolveConfig({}, { ...base, IAM_OUTBOUND_ALLOW: '10.0.0.0/8, hooks.internal' }).outboundAllow, ['10.0.0.0/8', 'hooks.internal']);
  assert.throws(() => resolveConfig({}, { ...base, IAM_OUTBOUND_ALLOW: '10.0.0.0/8,http://x/' }), /IAM_OUTBOUND_ALLOW: not a host name/);
});
