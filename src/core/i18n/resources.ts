// The shape of the texts, taken from the English files: every key passed to `t` is checked
// against it (a wrong key fails the typecheck). Types only: nothing here reaches a bundle.
import type admin from './locales/en/admin.json';
import type common from './locales/en/common.json';
import type consoleTexts from './locales/en/console.json';
import type login from './locales/en/login.json';
import type settings from './locales/en/settings.json';
import type account from './locales/en/account.json';
import type webhooks from './locales/en/webhooks.json';

interface Resources {
  common: typeof common;
  login: typeof login;
  console: typeof consoleTexts;
  admin: typeof admin;
  settings: typeof settings;
  account: typeof account;
  webhooks: typeof webhooks;
}

export type Namespace = keyof Resources;

/** The dotted paths of the texts of one file; plural forms (`key_one`, `key_other`) are asked for
 *  by their base key with a `count`. */
type PluralSuffix = '_zero' | '_one' | '_two' | '_few' | '_many' | '_other';
type Base<K extends string> = K extends `${infer B}${PluralSuffix}` ? B : K;
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${Base<K>}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key `t` accepts (`route.home`, `login:identifier.email`, …): each file's behind `ns:`,
 *  and `common`'s also without it. */
export type TextKey = Leaves<Resources['common']> | { [N in Namespace]: `${N}:${Leaves<Resources[N]>}` }[Namespace];

/** The type of `t`, for code that takes a translation function. */
export type Translate = (key: TextKey, options?: Record<string, unknown>) => string;
