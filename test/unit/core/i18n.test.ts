// i18n: key parity between the locales (every namespace file, recursively), on-demand loading,
// switching, the revision store, namespaced keys and typed keys.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import {
  $i18nRevision,
  $locale,
  loadNamespaces,
  nameText,
  namespaces,
  setLocale,
  storedLocale,
  t,
  textsLoaded,
  translate,
  tRule,
} from '../../../src/core/i18n';

/** `t` for keys read from the files at run time (the typecheck cannot know them). */
const tAny = t as unknown as (key: string, options?: Record<string, unknown>) => string;

const localesDir = fileURLToPath(new URL('../../../src/core/i18n/locales/', import.meta.url));

/** Every key path of a JSON object, nested keys joined by '.'. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

function filesOf(locale: string): string[] {
  return readdirSync(join(localesDir, locale))
    .filter((name) => name.endsWith('.json'))
    .sort();
}

describe('locale files', () => {
  it('both locales have the same namespace files, one per namespace', () => {
    assert.deepEqual(filesOf('en'), filesOf('zh'));
    assert.deepEqual(filesOf('en'), [...namespaces].map((ns) => `${ns}.json`).sort());
  });

  for (const file of filesOf('en')) {
    it(`${file}: every key exists in both locales, with a non-empty text`, () => {
      const read = (locale: string) => JSON.parse(readFileSync(join(localesDir, locale, file), 'utf8')) as unknown;
      // A plural text is one key: English has `_one` and `_other`, Chinese `_other` only.
      const bases = (locale: string) => [
        ...new Set(
          keyPaths(read(locale))
            .filter(Boolean)
            .map((key) => key.replace(/_(one|other)$/, '')),
        ),
      ];
      const en = bases('en');
      const zh = bases('zh');
      assert.deepEqual(
        en.filter((key) => !zh.includes(key)),
        [],
        'keys only in en',
      );
      assert.deepEqual(
        zh.filter((key) => !en.includes(key)),
        [],
        'keys only in zh',
      );
      for (const locale of ['en', 'zh']) {
        const texts = JSON.stringify(read(locale)).match(/:""/g);
        assert.equal(texts, null, `${locale}/${file} has an empty text`);
      }
    });
  }
});

describe('locale files use only what the translator supports', () => {
  for (const locale of ['en', 'zh']) {
    for (const file of filesOf(locale)) {
      it(`${locale}/${file}: no plural or context suffixes, no nesting, only plain {{name}} placeholders`, () => {
        const resources = JSON.parse(readFileSync(join(localesDir, locale, file), 'utf8')) as unknown;
        const keys = keyPaths(resources);
        const context = keys.filter((key) => /_(zero|two|few|many|male|female)$/.test(key));
        assert.deepEqual(context, [], 'only the plural forms English and Chinese use (_one, _other); no context keys');
        const withoutOther = keys.filter((key) => key.endsWith('_one') && !keys.includes(key.replace(/_one$/, '_other')));
        assert.deepEqual(withoutOther, [], 'every plural text has its _other form');
        const texts = JSON.stringify(resources);
        assert.equal(/\$t\(/.test(texts), false, 'nested $t(…) is not supported');
        const placeholders = texts.match(/\{\{[^}]*\}\}/g) ?? [];
        assert.deepEqual(
          placeholders.filter((placeholder) => !/^\{\{\s*\w+\s*\}\}$/.test(placeholder)),
          [],
          'formatted placeholders are not supported',
        );
      });
    }
  }
});

describe('i18n runtime', () => {
  it('plural texts: one and many in English, one form in Chinese', async () => {
    await loadNamespaces('settings');
    assert.equal(t('settings:send.sent', { count: 1 }), 'Sent to 1 recipient');
    assert.equal(t('settings:send.sent', { count: 3 }), 'Sent to 3 recipients');
    await setLocale('zh');
    assert.equal(t('settings:send.sent', { count: 1 }), '已发送给 1 位接收者');
    await setLocale('en');
  });

  it("counted texts that can be 1 are singular then: the audit log's rows, sessions ended, bulk questions, people found, days left, reused passwords", async () => {
    await loadNamespaces('admin', 'settings');
    assert.equal(t('admin:audit.rows', { count: 1 }), '1 row');
    assert.equal(t('admin:audit.rows', { count: 2 }), '2 rows');
    assert.equal(t('admin:audit.rowsOf', { count: 1, action: 'Users imported', time: 'now' }), '1 row of Users imported at now');
    assert.equal(t('admin:sessions.signedOut', { name: 'li', count: 1 }), 'li was signed out everywhere (1 console session ended).');
    assert.equal(t('admin:bulk.question.delete', { count: 1, names: 'li' }), 'Delete 1 user: li? This cannot be undone.');
    assert.equal(t('admin:bulk.question.delete', { count: 2, names: 'li, wang' }), 'Delete 2 users: li, wang? This cannot be undone.');
    assert.equal(t('admin:directory.testOk', { count: 1 }), 'Connection works: 1 person found');
    assert.match(t('settings:license.expiringBanner', { date: 'D', count: 1 }), /\(in 1 day\)/);
    assert.match(t('settings:license.expiringBanner', { date: 'D', count: 20 }), /\(in 20 days\)/);
    // A rule's parameters come as text (`rule.passwordReused?count=1`): the count still picks the form.
    assert.equal(tRule('rule.passwordReused?count=1'), 'This password was used recently: the last password cannot be used again');
    assert.equal(tRule('rule.passwordReused?count=5'), 'This password was used recently: the last 5 passwords cannot be used again');
    await setLocale('zh');
    assert.equal(t('admin:audit.rows', { count: 1 }), t('admin:audit.rows', { count: 2 }).replace('2', '1'));
    assert.match(tRule('rule.passwordReused?count=1'), /最近 1 次/);
    await setLocale('en');
  });

  it('common loads by itself (loadNamespaces waits for it); other namespaces are not loaded', async () => {
    assert.equal($locale.get(), 'en');
    await loadNamespaces();
    assert.equal(t('message.requestFailed'), 'The request failed');
    assert.equal(t('common:page.notFound'), 'Error: Page Not Found!');
  });

  // A key of the login namespace (filled by its owner), read from the file itself.
  const loginKey = keyPaths(JSON.parse(readFileSync(join(localesDir, 'en', 'login.json'), 'utf8')))[0] ?? '';

  it('loadNamespaces loads a namespace file and bumps the revision', async () => {
    assert.ok(loginKey, 'login.json has at least one key');
    const before = $i18nRevision.get();
    assert.equal(tAny(`login:${loginKey}`), loginKey, 'not loaded yet: the key itself (without namespace) is shown');
    await loadNamespaces('login');
    assert.ok($i18nRevision.get() > before);
    assert.notEqual(tAny(`login:${loginKey}`), loginKey);
  });

  it('setLocale loads zh, switches, keeps the choice, and bumps the revision', async () => {
    const store = new Map<string, string>();
    globalThis.localStorage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    } as Storage;
    const before = $i18nRevision.get();
    await setLocale('zh');
    assert.equal($locale.get(), 'zh');
    assert.equal(t('upload.button'), '上传');
    assert.equal(t('time.justNow'), '刚刚');
    assert.equal(tRule('rule.json'), '请输入正确的JSON格式');
    const zhLogin = JSON.parse(readFileSync(join(localesDir, 'zh', 'login.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(
      tAny(`login:${loginKey}`),
      loginKey.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], zhLogin),
      'namespaces asked for earlier are loaded for zh too',
    );
    assert.ok($i18nRevision.get() > before);
    assert.equal(store.get('iam-locale'), 'zh');
    assert.equal(storedLocale(), 'zh');
    await setLocale('en');
    assert.equal(t('upload.button'), 'Upload');
    assert.equal(storedLocale(), 'en');
  });

  it('overlapping switches: the last one wins', async () => {
    await Promise.all([setLocale('zh'), setLocale('en')]);
    assert.equal($locale.get(), 'en');
    assert.equal(t('route.home'), 'Home');
  });

  it('rejects an unknown locale', async () => {
    await assert.rejects(setLocale('fr' as 'en'), /Unsupported locale/);
    assert.equal($locale.get(), 'en');
  });

  it('interpolates parameters without HTML escaping (UIs render text as text)', () => {
    assert.equal(t('rule.range', { min: '<1>', max: 5 }), 'Please enter an integer from <1> to 5');
    assert.equal(t('common:time.minutesAgo', { count: 3 }), '3 min ago');
  });

  it('a placeholder given no value shows nothing', () => {
    assert.equal(t('rule.range', { min: 1 }), 'Please enter an integer from 1 to ');
  });

  it('a namespace not loaded in Chinese yet shows its English texts, not its keys', async () => {
    assert.equal($locale.get(), 'en');
    await loadNamespaces('webhooks');
    assert.equal(textsLoaded('zh', 'webhooks'), false, 'loaded for the current locale (and English) only');
    assert.equal(translate('zh', 'webhooks:create'), 'New webhook');
  });

  it('a key that is not in the files fails the typecheck, and answers itself (without namespace) at run time', () => {
    // @ts-expect-error no such key in common.json
    assert.equal(t('common:no.such.key'), 'no.such.key');
    // @ts-expect-error a key of the login namespace needs its prefix
    assert.equal(t('identifier.USERNAME_PASSWORD'), 'identifier.USERNAME_PASSWORD');
  });

  it('names that are data: a text key is translated, anything else is shown as written', () => {
    assert.equal(nameText('route.home'), 'Home');
    assert.equal(nameText('Reports: monthly'), 'Reports: monthly');
    assert.equal(nameText('message'), 'message', 'a key naming a group of texts is not a text');
  });

  it('nested keys of a loaded namespace, in both locales', async () => {
    await loadNamespaces('console');
    const read = (locale: string) => JSON.parse(readFileSync(join(localesDir, locale, 'console.json'), 'utf8')) as Record<string, Record<string, string>>;
    const [group, texts] = Object.entries(read('en')).find(([, value]) => typeof value === 'object') ?? [];
    assert.ok(group && texts, 'console.json has a group of texts');
    const [key, text] = Object.entries(texts)[0] ?? [];
    assert.equal(tAny(`console:${group}.${key}`), text);
    await setLocale('zh');
    assert.equal(tAny(`console:${group}.${key}`), read('zh')[group]?.[key ?? '']);
    await setLocale('en');
  });
});
