// i18next setup (no react-i18next). English `common` is bundled; every other namespace and every
// Chinese resource is loaded on demand through the explicit import map below, so that a bundler
// splits each file into its own chunk and the sign-in entry ships only what it shows.
// The instance is private (createInstance): a host page's own i18next is never touched.
import i18next, { type TOptions } from 'i18next';
import { atom } from 'nanostores';
import { APP } from '../config';
import { parseRuleMessage } from '../rule-message';
import enCommon from './locales/en/common.json' with { type: 'json' };

export type Locale = 'en' | 'zh';
export const locales: readonly Locale[] = ['en', 'zh'];
export type Namespace = 'common' | 'login' | 'console' | 'admin' | 'settings';
export const namespaces: readonly Namespace[] = ['common', 'login', 'console', 'admin', 'settings'];

type Resources = Record<string, unknown>;
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

const instance = i18next.createInstance();
void instance.init({
  lng: defaultLocale,
  fallbackLng: defaultLocale,
  supportedLngs: [...locales],
  ns: ['common'],
  defaultNS: 'common',
  resources: { en: { common: enCommon } },
  // UIs render text as text (React escapes it); escaping here would show entities.
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** The current locale. Change it with `setLocale`, not directly. */
export const $locale = atom<Locale>(defaultLocale);
/** Changes whenever the language or the loaded resources change, so UIs can re-render. */
export const $i18nRevision = atom(0);

const bump = () => $i18nRevision.set($i18nRevision.get() + 1);
instance.on('languageChanged', bump);
instance.store.on('added', bump);

/** Namespaces the UI asked for; a locale switch loads them for the new locale too. */
const wanted = new Set<Namespace>(['common']);
const pending = new Map<string, Promise<void>>();

function load(locale: Locale, ns: Namespace): Promise<void> {
  const id = `${locale}/${ns}`;
  if (instance.hasResourceBundle(locale, ns)) return Promise.resolve();
  const loader = loaders[locale][ns];
  if (!loader) return Promise.resolve();
  let promise = pending.get(id);
  if (!promise) {
    promise = loader()
      .then((module) => {
        instance.addResourceBundle(locale, ns, module.default, true, true);
      })
      .finally(() => pending.delete(id));
    pending.set(id, promise);
  }
  return promise;
}

/** Loads namespaces for the current locale (and remembers them for later locale switches). */
export async function loadNamespaces(...ns: Namespace[]): Promise<void> {
  ns.forEach((name) => wanted.add(name));
  await Promise.all(ns.map((name) => load($locale.get(), name)));
}

let switchId = 0;

/** Loads what `locale` needs, then switches to it and keeps the choice in localStorage when available.
 *  When switches overlap, the last one wins. */
export async function setLocale(locale: Locale): Promise<void> {
  if (!locales.includes(locale)) throw new Error(`Unsupported locale: ${String(locale)}`);
  const id = ++switchId;
  await Promise.all([...wanted].map((name) => load(locale, name)));
  if (id !== switchId) return;
  await instance.changeLanguage(locale);
  $locale.set(locale);
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

/** Translates `key` (`ns:key`; the default namespace is `common`). */
export function t(key: string, options?: Record<string, unknown>): string {
  return instance.t(key, options as TOptions) as string;
}

/** Translates a validation issue message (`rule.*`, possibly with parameters; see rule-message.ts). */
export function tRule(message: string): string {
  const { key, params } = parseRuleMessage(message);
  return t(key, params);
}
