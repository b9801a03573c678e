// Translations: the texts are the JSON files under locales/ (one file per locale and namespace), and
// `{{name}}` placeholders are filled in by templite; looking a key up, plural forms and the English
// fallback are this module's own (a few lines: the whole of what the UIs use, which a translation
// framework would bring with some 15 KiB min+gzip of what they do not, on the sign-in entry's
// first load). Keys are `ns:key` (nested keys joined by dots, default namespace `common`) and
// typed from the English files (src/core/i18n/resources.ts): a wrong key fails the typecheck.
// Every namespace file is loaded on demand through the explicit import map below, so that a
// bundler splits each file into its own chunk: the sign-in entry fetches `common` and `login`
// only, the console's screens their own namespace. `common` starts loading as soon as this module
// is imported, and every `loadNamespaces` waits for it too.
import fill from 'templite';
import { atom } from 'nanostores';
import { APP } from '../config';
import { parseRuleMessage } from '../rule-message';
import type { Namespace, Translate, TextKey } from './resources';

export type { Namespace, TextKey, Translate } from './resources';
export type Locale = 'en' | 'zh';
export const locales: readonly Locale[] = ['en', 'zh'];
export const namespaces: readonly Namespace[] = ['common', 'login', 'console', 'admin', 'settings', 'account', 'webhooks'];

type Loader = () => Promise<{ default: unknown }>;

/** Every locale file, as a dynamic import a bundler can split. */
const loaders: Record<Locale, Record<Namespace, Loader>> = {
  en: {
    common: () => import('./locales/en/common.json', { with: { type: 'json' } }),
    login: () => import('./locales/en/login.json', { with: { type: 'json' } }),
    console: () => import('./locales/en/console.json', { with: { type: 'json' } }),
    admin: () => import('./locales/en/admin.json', { with: { type: 'json' } }),
    settings: () => import('./locales/en/settings.json', { with: { type: 'json' } }),
    account: () => import('./locales/en/account.json', { with: { type: 'json' } }),
    webhooks: () => import('./locales/en/webhooks.json', { with: { type: 'json' } }),
  },
  zh: {
    common: () => import('./locales/zh/common.json', { with: { type: 'json' } }),
    login: () => import('./locales/zh/login.json', { with: { type: 'json' } }),
    console: () => import('./locales/zh/console.json', { with: { type: 'json' } }),
    admin: () => import('./locales/zh/admin.json', { with: { type: 'json' } }),
    settings: () => import('./locales/zh/settings.json', { with: { type: 'json' } }),
    account: () => import('./locales/zh/account.json', { with: { type: 'json' } }),
    webhooks: () => import('./locales/zh/webhooks.json', { with: { type: 'json' } }),
  },
};

/** Whether `value` names a supported locale. */
export function isLocale(value: unknown): value is Locale {
  return locales.some((locale) => locale === value);
}
const isNamespace = (value: string): value is Namespace => namespaces.some((ns) => ns === value);

const STORAGE_KEY = 'iam-locale';
/** The locale an element shows when its `locale` attribute is unset. */
export const defaultLocale = APP.defaultLocale as Locale;
/** Where a text missing from a locale is looked up next (the key parity of the files is tested,
 *  so in practice: a namespace not loaded yet in that locale). */
const fallbackLocale: Locale = 'en';

/** A namespace file: texts, or groups of texts, by key. */
interface Texts {
  [key: string]: string | Texts;
}

/** The loaded files, by locale and namespace. */
const loaded: Record<Locale, Partial<Record<Namespace, Texts>>> = { en: {}, zh: {} };
/** The files being loaded or loaded, by `locale:namespace` (a failed load is forgotten, so that
 *  the next ask tries again). */
const loading = new Map<string, Promise<void>>();
/** Every namespace the UI has asked for so far: a locale switch loads them all before it shows. */
const asked = new Set<Namespace>(['common']);

/** The current locale. Change it with `setLocale`, not directly. */
export const $locale = atom<Locale>(defaultLocale);
/** Changes whenever the language or the loaded resources change, so UIs can re-render. */
export const $i18nRevision = atom(0);

const bump = () => $i18nRevision.set($i18nRevision.get() + 1);

/** The locales a text of `locale` is looked up in, in order. */
const lookupOrder = (locale: Locale): Locale[] => (locale === fallbackLocale ? [locale] : [locale, fallbackLocale]);

/** Loads one file once (every later ask waits for the same load). */
function loadFile(locale: Locale, ns: Namespace): Promise<void> {
  const id = `${locale}:${ns}`;
  let pending = loading.get(id);
  if (!pending) {
    pending = loaders[locale][ns]().then(
      (module) => {
        loaded[locale][ns] = module.default as Texts;
        bump();
      },
      (error: unknown) => {
        loading.delete(id);
        // The texts of this file show as their keys until a later ask loads it.
        console.warn(`iam-console: the ${locale} texts of ${ns} did not load`, error);
      },
    );
    loading.set(id, pending);
  }
  return pending;
}

/** Loads namespaces for `locale` and its fallback, and remembers them for later locale switches. */
async function load(locale: Locale, ns: Iterable<Namespace>): Promise<void> {
  const files = [...ns];
  for (const name of files) asked.add(name);
  await Promise.all(lookupOrder(locale).flatMap((code) => files.map((name) => loadFile(code, name))));
}

/** Loads `common` and the namespaces asked for, in the current locale (and remembers them for
 *  later locale switches). */
export async function loadNamespaces(...ns: Namespace[]): Promise<void> {
  await load($locale.get(), ['common', ...ns]);
}

/** Loads namespaces (and `common`, which every text may use) for `locale` (an element's own),
 *  without switching the page-wide locale; they are remembered for later locale switches. */
export async function loadTexts(locale: Locale, ...ns: Namespace[]): Promise<void> {
  await loadNamespaces(...ns);
  await loadAskedTexts(locale);
}

/** Whether `common` and `ns` are already loaded for `locale`: a UI asking for texts that are
 *  there shows them in its first paint, not one frame later. */
export function textsLoaded(locale: Locale, ...ns: Namespace[]): boolean {
  return ['common' as const, ...ns].every((name) => loaded[locale][name] !== undefined);
}

/** Loads, for `locale`, every namespace the UI has asked for so far (before showing it). */
export async function loadAskedTexts(locale: Locale): Promise<void> {
  await load(locale, asked);
}

void loadNamespaces();

let switchId = 0;

/** Loads what `locale` needs, then switches to it and (unless `remember` is false: an element's
 *  attribute is no choice of the person) keeps the choice in localStorage when available.
 *  When switches overlap, the last one wins. */
export async function setLocale(locale: Locale, { remember = true }: { remember?: boolean } = {}): Promise<void> {
  if (!locales.includes(locale)) throw new Error(`Unsupported locale: ${String(locale)}`);
  const id = ++switchId;
  await loadAskedTexts(locale);
  if (id !== switchId) return;
  $locale.set(locale);
  bump();
  if (!remember) return;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, locale);
  } catch {
    // Storage may be unavailable (privacy mode, sandboxed frames): the choice is then not kept.
  }
}

/** The locale saved by an earlier `setLocale`, if storage is available and holds a valid one. */
export function storedLocale(): Locale | undefined {
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
    return locales.find((locale) => locale === saved);
  } catch {
    return undefined;
  }
}

/** A key's namespace and its path in that namespace's file (`common` when it names none). */
function splitKey(key: string): { ns: Namespace; path: string } {
  const at = key.indexOf(':');
  const prefix = key.slice(0, at);
  return at > 0 && isNamespace(prefix) ? { ns: prefix, path: key.slice(at + 1) } : { ns: 'common', path: key };
}

/** The text at `path` (nested keys joined by dots) of a loaded file; a group of texts is none. */
function textAt(locale: Locale, ns: Namespace, path: string): string | undefined {
  let node: string | Texts | undefined = loaded[locale][ns];
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

const pluralRules: Partial<Record<Locale, Intl.PluralRules>> = {};
/** The plural form `count` takes in `locale` (`one`, `other`, …), the suffix of its key. */
const pluralForm = (locale: Locale, count: number) => (pluralRules[locale] ??= new Intl.PluralRules(locale)).select(count);

/** The text of `key` in `locale`, else in English: with a numeric `count`, its plural form
 *  (`key_one`, `key_other`) first, then the key itself. */
function findText(locale: Locale, key: string, count: unknown): string | undefined {
  const { ns, path } = splitKey(key);
  for (const code of lookupOrder(locale)) {
    const text = (typeof count === 'number' ? textAt(code, ns, `${path}_${pluralForm(code, count)}`) : undefined) ?? textAt(code, ns, path);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The lookup behind every translation, in `locale` or the current one: the text with its
 *  `{{name}}` placeholders filled in from `options` (a missing one as nothing; not HTML-escaped:
 *  UIs render text as text), else the key itself without its namespace. */
function lookup(locale: Locale | undefined, key: string, options?: Record<string, unknown>): string {
  const text = findText(locale ?? $locale.get(), key, options?.count);
  return text === undefined ? splitKey(key).path : fill(text, options ?? {});
}

/** Translates a key (`ns:key`; the default namespace is `common`) in the current locale, else in
 *  English, else answers the key itself (without its namespace), filling in `{{name}}`
 *  placeholders from the options. The key is checked by the typecheck. */
export const t: Translate = (key, options) => lookup(undefined, key, options);

/** `t` in a given locale (an element's own), typed the same way. */
export function translatorFor(locale: Locale): Translate {
  return (key, options) => lookup(locale, key, options);
}

/** Translates `key` in `locale`. */
export function translate(locale: Locale, key: TextKey, options?: Record<string, unknown>): string {
  return lookup(locale, key, options);
}

/** A name that is data (a menu plan's item name, which may also be a text key): its translation
 *  when it is a key, else the name as written. */
export function nameText(name: string, locale?: Locale): string {
  return findText(locale ?? $locale.get(), name, undefined) === undefined ? name : lookup(locale, name);
}

/** Translates a validation issue message (`rule.*`, possibly with parameters; see rule-message.ts).
 *  Its key comes at run time (from the validation rules or the server), so it cannot be typed:
 *  test/unit/core/server-rule-keys.test.ts holds the keys against common.json instead. */
export function tRule(message: string): string {
  return translateRule($locale.get(), message);
}

/** `tRule` in a given locale. */
export function translateRule(locale: Locale, message: string): string {
  const { key, params } = parseRuleMessage(message);
  // Parameters come as text; a count picks the plural form as a number.
  return lookup(locale, key, params.count === undefined ? params : { ...params, count: Number(params.count) });
}
