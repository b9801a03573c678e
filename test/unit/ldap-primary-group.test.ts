// Active Directory's primary group as server/ldap/primary-group.ts works it out: the account's domain
// SID with the primaryGroupID as its last part. Hostile or odd values name no group.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { primaryGroupSid } from '../../server/ldap/primary-group';

/** A binary SID (as hex) S-1-5-21-a-b-c-rid: revision 1, five sub-authorities, authority 5. */
function sid(...subAuthorities: number[]): string {
  const bytes = Buffer.alloc(8 + 4 * subAuthorities.length);
  bytes[0] = 1;
  bytes[1] = subAuthorities.length;
  bytes.writeUIntBE(5, 2, 6);
  subAuthorities.forEach((part, index) => bytes.writeUInt32LE(part, 8 + 4 * index));
  return bytes.toString('hex');
}

test("the primary group is the account's domain SID with primaryGroupID as its last part", () => {
  assert.equal(primaryGroupSid(sid(21, 1, 2, 3, 1105), '513'), sid(21, 1, 2, 3, 513));
  assert.equal(primaryGroupSid(sid(21, 1, 2, 3, 1105), ' 514 '), sid(21, 1, 2, 3, 514), "AD's text value, spaces around it");
});

test('a missing, malformed or out-of-range value names no group', () => {
  const account = sid(21, 1, 2, 3, 1105);
  for (const id of ['', '-1', '5.13', '0x201', '4294967296', '513; 512', '1'.repeat(11)]) {
    assert.equal(primaryGroupSid(account, id), '', `primaryGroupID ${JSON.stringify(id)}`);
  }
  const truncated = account.slice(0, -8);
  const padded = `${account}00`;
  for (const objectSid of ['', 'zz', '01', truncated, padded]) {
    assert.equal(primaryGroupSid(objectSid, '513'), '', `objectSid ${objectSid}`);
  }
});
