// Translations through i18next, on an instance of this module's own (a host page's i18next, if
// any, is never touched). Keys are `ns:key` (nested keys joined by dots, default namespace
// `common`) and typed from the English files (src/core/i18n/resources.ts): a wrong key fails the
// typecheck. Every namespace file is loaded on demand through the explicit import map below, so
// that a bundler splits each file into its own chunk: the sign-in entry fetches `common` and
// `login` only, the console's screens their own namespace. `common` starts loading as soon as
// this module is imported, and every `loadNamespaces` waits for it too.
import { createInstance, type BackendModule, type ReadCallback } from 'i18next';
import { atom } from 'nanostores';
import { APP } from '../config';
import { parseRuleMessage } from '../rule-message';
import type { Namespace, Resources, TextKey, Translate } from './resources';

export type { Namespace, TextKey, Translate } from './resources';
export type Locale = 'en' | 'zh';
export const locales: readonly Locale[] = ['en', 'zh'];
export const namespaces: readonly Namespace[] = ['common', 'login', 'console', 'admin', 'settings', 'account', 'webhooks'];

type Loader = () => Promise<{ default: unknown }>;

/** Every locale file, as a dynamic import a bundler can split. */
const loaders: Record<Locale, Partial<Record<Namespace, Loader>>> = {
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

/** The i18next backend: reads a namespace file through the import map. */
const importBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, ns: string, callback: ReadCallback) {
    const loader = isLocale(language) && isNamespace(ns) ? loaders[language][ns] : undefined;
    if (!loader) return callback(null, {});
    loader().then(
      (module) => callback(null, module.default as Resources[Namespace]),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

const STORAGE_KEY = 'iam-locale';
/** The locale an element shows when its `locale` attribute is unset. */
export const defaultLocale = APP.defaultLocale as Locale;

const i18n = createInstance();
void i18n.use(importBackend).init({
  lng: defaultLocale,
  fallbackLng: 'en',
  supportedLngs: [...locales],
  ns: ['common'],
  defaultNS: 'common',
  // Start at once (the namespaces load in the background), so that `t` can be called right away.
  initAsync: false,
  // UIs render text as text (React escapes it).
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** The current locale. Change it with `setLocale`, not directly. */
export const $locale = atom<Locale>(defaultLocale);
/** Changes whenever the language or the loaded resources change, so UIs can re-render. */
export const $i18nRevision = atom(0);

const bump = () => $i18nRevision.set($i18nRevision.get() + 1);
i18n.on('loaded', bump);

/** Loads `common` and the namespaces asked for, in the current locale (and remembers them for
 *  later locale switches). */
export async function loadNamespaces(...ns: Namespace[]): Promise<void> {
  await i18n.loadNamespaces(['common', ...ns]);
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
  return ['common', ...ns].every((name) => i18n.hasResourceBundle(locale, name));
}

/** Loads, for `locale`, every namespace the UI has asked for so far (before showing it). */
export async function loadAskedTexts(locale: Locale): Promise<void> {
  await i18n.loadLanguages(locale);
}

let switchId = 0;

/** Loads what `locale` needs, then switches to it and (unless `remember` is false: an element's
 *  attribute is no choice of the person) keeps the choice in localStorage when available.
 *  When switches overlap, the last one wins. */
export async function setLocale(locale: Locale, { remember = true }: { remember?: boolean } = {}): Promise<void> {
  if (!locales.includes(locale)) throw new Error(`Unsupported locale: ${String(locale)}`);
  const id = ++switchId;
  await i18n.loadLanguages(locale);
  if (id !== switchId) return;
  await i18n.changeLanguage(locale);
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

/** The lookup behind every translation: i18next, in `locale` or the current one. */
const lookup = (locale: Locale | undefined, key: string, options?: Record<string, unknown>) =>
  (i18n.t as unknown as (key: string, options?: Record<string, unknown>) => string)(key, locale ? { ...options, lng: locale } : options);

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
  return i18n.exists(name) ? lookup(locale, name) : name;
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
  return lookup(locale, key, params);
}
