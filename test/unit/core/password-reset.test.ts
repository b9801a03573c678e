// The "forgot password" identifier of the shared schema: an email address goes by email, a
// mainland mobile number by SMS, anything else is refused with rule.emailOrPhone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { passwordResetBody, resetChannelOf, resetCodeBody, resetIdentifier } from '../../../src/core/schemas/password-reset';

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
