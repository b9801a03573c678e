// The role the console shows for the signed-in person (home badge, account menu, profile "Role"):
// it names a person's role, never a kind of tenant ("admin tenant" read as if the tenant were the
// administrator), in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roleKey } from '../../../src/react/app/user';
import { setLocale, t } from '../../../src/core/i18n';

const people = [
  { who: 'a platform administrator', user: { isAdmin: true, isMaster: true }, en: 'Platform administrator', zh: '平台管理员' },
  { who: 'a tenant administrator', user: { isAdmin: true, isMaster: false }, en: 'Tenant administrator', zh: '租户管理员' },
  { who: 'a member', user: { isAdmin: false, isMaster: false }, en: 'Member', zh: '成员' },
];

test('each kind of person is named by their role, in English and Chinese', async () => {
  for (const locale of ['en', 'zh'] as const) {
    await setLocale(locale);
    for (const person of people) assert.equal(t(roleKey(person.user)), person[locale], person.who);
  }
});
