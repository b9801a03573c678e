// Translations without an i18n framework: the console needs only lookup of `ns:key` texts (dotted
// nested keys, default namespace `common`), `{{name}}` interpolation and a fallback to English,
// then to the key. English `common` is bundled; every other namespace and every Chinese resource
// is loaded on demand through the explicit import map below, so that a bundler splits each file
// into its own chunk and the sign-in entry ships only what it shows. The state is this module's
// own: a host page's i18n library is never touched.
import { atom } from 'nanostores';
import { APP } from '../config';
import { parseRuleMessage } from '../rule-message';
import enCommon from './locales/en/common.json' with { type: 'json' };
import { interpolate, lookup, type Resources } from './translate';

export type Locale = 'en' | 'zh';
export const locales: readonly Locale[] = ['en', 'zh'];
export type Namespace = 'common' | 'login' | 'console' | 'admin' | 'settings';
export const namespaces: readonly Namespace[] = ['common', 'login', 'console', 'admin', 'settings'];

type Loader = () => Promise<{ default: Resources }>;

/** Every locale file but the bundled English `common`, as a dynamic import a bundler can split. */
const loaders: Record<Locale, Partial<Record<Namespace, Loader>>> = {
  en: {
    login: () => import('./locales/en/login.json', { with: { type: 'json' } }),
    console: () => import('./locales/en/console.json', { with: { type: 'json' } }),
    admin: () => import('./locales/en/admin.json', { with: { type: 'json' } }),
    settings: () => import('./locales/en/settings.json', { with: { type: 'json' } }),
  },
  zh: {
    common: () => import('./locales/zh/common.json', { with: { type: 'json' } }),
    login: () => import('./locales/zh/login.json', { with: { type: 'json' } }),
    console: () => import('./locales/zh/console.json', { with: { type: 'json' } }),
    admin: () => import('./locales/zh/admin.json', { with: { type: 'json' } }),
    settings: () => import('./locales/zh/settings.json', { with: { type: 'json' } }),
  },
};

const STORAGE_KEY = 'iam-locale';
const defaultLocale = APP.defaultLocale as Locale;

/** The loaded namespace files, by locale. */
const resources: Record<Locale, Partial<Record<Namespace, Resources>>> = { en: { common: enCommon }, zh: {} };

/** The current locale. Change it with `setLocale`, not directly. */
export const $locale = atom<Locale>(defaultLocale);
/** Changes whenever the language or the loaded resources change, so UIs can re-render. */
export const $i18nRevision = atom(0);

const bump = () => $i18nRevision.set($i18nRevision.get() + 1);

/** Namespaces the UI asked for; a locale switch loads them for the new locale too. */
const wanted = new Set<Namespace>(['common']);
const pending = new Map<string, Promise<void>>();

function load(locale: Locale, ns: Namespace): Promise<void> {
  const id = `${locale}/${ns}`;
  if (resources[locale][ns]) return Promise.resolve();
  const loader = loaders[locale][ns];
  if (!loader) return Promise.resolve();
  let promise = pending.get(id);
  if (!promise) {
    promise = loader()
      .then((module) => {
        resources[locale][ns] = module.default;
        bump();
      })
      .finally(() => pending.delete(id));
    pending.set(id, promise);
  }
  return promise;
}

/** Loads namespaces for the current locale (and remembers them for later locale switches). */
export async function loadNamespaces(...ns: Namespace[]): Promise<void> {
  await loadTexts($locale.get(), ...ns);
}

/** Loads namespaces (and `common`, which every text may use) for `locale` (an element's own),
 *  without switching the page-wide locale. */
export async function loadTexts(locale: Locale, ...ns: Namespace[]): Promise<void> {
  ns.forEach((name) => wanted.add(name));
  await Promise.all([...new Set<Namespace>(['common', ...ns])].map((name) => load(locale, name)));
}

/** Loads, for `locale`, every namespace the UI has asked for so far (before showing it). */
export async function loadAskedTexts(locale: Locale): Promise<void> {
  await Promise.all([...wanted].map((name) => load(locale, name)));
}

/** Whether `value` names a supported locale. */
export function isLocale(value: unknown): value is Locale {
  return locales.some((locale) => locale === value);
}

/** The locale an element shows when its `locale` attribute is unset. */
export { defaultLocale };

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

function isNamespace(name: string): name is Namespace {
  return namespaces.some((ns) => ns === name);
}

/** Translates `key` (`ns:key`, nested keys joined by dots; the default namespace is `common`) in the
 *  current locale, else in English, else answers the key itself (without its namespace), and fills
 *  in the `{{name}}` placeholders from `options`. */
export function t(key: string, options?: Record<string, unknown>): string {
  return translate($locale.get(), key, options);
}

/** `t` in a given locale (an element's own). */
export function translate(locale: Locale, key: string, options?: Record<string, unknown>): string {
  const colon = key.indexOf(':');
  const prefix = key.slice(0, colon);
  const [ns, path] = colon > 0 && isNamespace(prefix) ? [prefix, key.slice(colon + 1)] : ['common' as const, key];
  const text = lookup(resources[locale][ns], path) ?? lookup(resources[defaultLocale][ns], path) ?? path;
  return interpolate(text, options);
}

/** Translates a validation issue message (`rule.*`, possibly with parameters; see rule-message.ts). */
export function tRule(message: string): string {
  return translateRule($locale.get(), message);
}

/** `tRule` in a given locale. */
export function translateRule(locale: Locale, message: string): string {
  const { key, params } = parseRuleMessage(message);
  return translate(locale, key, params);
}
