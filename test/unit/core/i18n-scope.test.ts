// Each element translates in its own locale: loading and using another locale's texts leaves the
// page-wide locale and the person's stored choice alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { $locale, loadTexts, setLocale, storedLocale, t, translate, translateRule } from '../../../src/core/i18n';

test('an element locale loads and translates without switching the page-wide locale or storing a choice', async () => {
  const written: string[] = [];
  globalThis.localStorage = { setItem: (key: string, value: string) => void written.push(`${key}=${value}`), getItem: () => null } as unknown as Storage;
  await loadTexts('en', 'login');
  await loadTexts('zh', 'login');
  assert.equal($locale.get(), 'en');
  assert.equal(translate('zh', 'login:submit'), '登录');
  assert.equal(t('login:submit'), 'Sign in');
  assert.equal(translateRule('zh', 'rule.required'), translate('zh', 'rule.required'));
  assert.notEqual(translate('zh', 'rule.required'), translate('en', 'rule.required'), 'common is loaded with the namespace');
  await setLocale('zh', { remember: false });
  assert.equal($locale.get(), 'zh');
  assert.deepEqual(written, [], 'an attribute is no choice of the person');
  await setLocale('en');
  assert.deepEqual(written, ['iam-locale=en']);
  assert.equal(storedLocale(), undefined);
  Reflect.deleteProperty(globalThis, 'localStorage');
});
