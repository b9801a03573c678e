// The "forgot password" identifier of the shared schema: an email address goes by email, a
// mobile number by SMS (mainland by default, E.164 under the international field rules), anything
// else is refused with rule.emailOrPhone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { passwordResetBody, resetChannelOf, resetCodeBody, resetIdentifier, resetIdentifierWith } from '../../../src/core/schemas/password-reset';
import { FieldRules, fieldRules, followFieldRules } from '../../../src/core/validation/field-rules';

const issueOf = (value: unknown) => {
  const result = v.safeParse(resetIdentifier, value);
  return result.success ? undefined : result.issues[0].message;
};

test('an email address or a mobile phone number, trimmed; each picks its channel', () => {
  assert.equal(v.parse(resetIdentifier, '  person@example.com '), 'person@example.com');
  assert.equal(v.parse(resetIdentifier, '13912345678'), '13912345678');
  assert.equal(resetChannelOf('person@example.com'), 'EMAIL');
  assert.equal(resetChannelOf('13912345678'), 'SMS');
});

test('anything else is refused with the one message', () => {
  assert.equal(issueOf(''), 'rule.required');
  for (const wrong of ['person', 'person@', '12912345678', '1391234567', '139123456789', `${'a'.repeat(95)}@example.com`]) {
    assert.equal(issueOf(wrong), 'rule.emailOrPhone', wrong);
  }
});

test('the bodies: a code request names only the identifier; a reset needs a six-digit code', () => {
  assert.deepEqual(v.parse(resetCodeBody, { identifier: '13912345678' }), { identifier: '13912345678' });
  const body = { identifier: 'person@example.com', code: ' 123456 ', password: 'a'.repeat(64) };
  assert.equal(v.parse(passwordResetBody, body).code, '123456');
  assert.equal(v.safeParse(passwordResetBody, { ...body, code: '12345' }).success, false);
});

test('under the international field rules a phone number is E.164, answered as it is stored', () => {
  followFieldRules(() => FieldRules.International);
  try {
    assert.equal(v.parse(resetIdentifier, '+44 20 7946 0958'), '+442079460958');
    assert.equal(issueOf('13912345678'), 'rule.emailOrPhone', 'a mainland number without its country code');
  } finally {
    followFieldRules(() => FieldRules.Default);
  }
  // The sign-in page builds its own with the mode its public settings name.
  const onThePage = resetIdentifierWith(fieldRules(FieldRules.International).mobilePhone);
  assert.equal(v.parse(onThePage, '+1 (415) 555-0100'), '+14155550100');
  assert.equal(v.parse(onThePage, 'person@example.com'), 'person@example.com');
  assert.equal(v.safeParse(resetIdentifierWith(fieldRules(FieldRules.Default).mobilePhone), '+1 (415) 555-0100').success, false);
});
