// Active Directory's account states as server/ldap/account-state.ts reads them where slapd cannot
// show them: the reasons Active Directory gives in a refused bind's message (its `data` code; the
// test slapd refuses a wrong password without one), and accountExpires at the FILETIME edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stateOfBindRefusal, stateOfEntry } from '../../server/ldap/account-state';

/** Active Directory's invalidCredentials message with a reason code, as Windows Server sends it. */
const refusal = (code: string) => `80090308: LdapErr: DSID-0C09044E, comment: AcceptSecurityContext error, data ${code}, v4563`;

test("a refused bind's data code names the account state; a wrong password (52e), a lockout (775, answered to any password) or anything else names none", () => {
  const states = Object.fromEntries(['532', '533', '701', '773', '775', '52e', '525', '530'].map((code) => [code, stateOfBindRefusal(refusal(code))]));
  assert.deepEqual(states, {
    '532': 'passwordExpired',
    '533': 'disabled',
    '701': 'accountExpired',
    '773': 'mustChangePassword',
    // Answered whatever the password: a wrong password, counted, tells nobody the account is locked.
    '775': null,
    '52e': null,
    '525': null,
    '530': null,
  });
  assert.equal(stateOfBindRefusal('Invalid Credentials'), null, "OpenLDAP's refusal names no state");
});

test('accountExpires: 0 and the largest FILETIME mean never; the expiry instant itself has expired', () => {
  const now = Date.UTC(2026, 0, 1);
  const at = (ms: number) => String((BigInt(ms) + 11_644_473_600_000n) * 10_000n);
  const state = (accountExpires: string) => stateOfEntry({ accountControl: '512', accountExpires, pwdLastSet: '133000000000000000' }, now);
  assert.deepEqual(['0', '9223372036854775807', at(now + 1), at(now), at(now - 1), 'not a number', ''].map(state), [
    null,
    null,
    null,
    'accountExpired',
    'accountExpired',
    null,
    null,
  ]);
});
