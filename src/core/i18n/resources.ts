// The shape of the texts, taken from the English files: i18next's typings check every key passed
// to `t` against it (a wrong key fails the typecheck). Types only: nothing here reaches a bundle.
import type { ParseKeys, TFunction } from 'i18next';
import type admin from './locales/en/admin.json';
import type common from './locales/en/common.json';
import type consoleTexts from './locales/en/console.json';
import type login from './locales/en/login.json';
import type settings from './locales/en/settings.json';

export interface Resources {
  common: typeof common;
  login: typeof login;
  console: typeof consoleTexts;
  admin: typeof admin;
  settings: typeof settings;
}

export type Namespace = keyof Resources;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Resources;
    returnNull: false;
  }
}

/** The namespaces `t` looks in: `common` by default, the others through their `ns:` prefix. */
type Namespaces = ['common', ...Exclude<Namespace, 'common'>[]];

/** Every key `t` accepts (`route.home`, `login:identifier.email`, …). */
export type TextKey = ParseKeys<Namespaces>;

/** The type of `t`, for code that takes a translation function. */
export type Translate = TFunction<Namespaces>;
