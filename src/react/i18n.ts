// React access to the core's i18n. Each element shows its own locale: its root provides a
// LocaleScope, and every component under it translates in that locale (useT, useTRule), never in a
// neighbour's. Components outside any scope (a React host using the components directly) follow
// the page-wide locale. Components re-render when the loaded resources change ($i18nRevision) and
// wait for the texts they show before they render.
import { createContext, createElement, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useStore } from './store';
import {
  $i18nRevision,
  $locale,
  defaultLocale,
  isLocale,
  loadAskedTexts,
  loadTexts,
  nameText,
  textsLoaded,
  translateRule,
  translatorFor,
  type Locale,
  type Namespace,
  type Translate,
} from '../core/i18n';

interface LocaleScopeValue {
  locale: Locale;
  /** The person picks another language (the console's switch); absent where there is no switch. */
  choose?: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleScopeValue | undefined>(undefined);

/** Provides an element's locale to everything it renders: `locale` when supported, else English.
 *  A change shows once the texts it has on screen are loaded in the new locale. */
export function LocaleScope({ locale, choose, children }: { locale: string | undefined; choose?: (locale: Locale) => void; children: ReactNode }) {
  const requested = isLocale(locale) ? locale : defaultLocale;
  const [shown, setShown] = useState(requested);
  useEffect(() => {
    let current = true;
    void loadAskedTexts(requested).then(() => current && setShown(requested));
    return () => {
      current = false;
    };
  }, [requested]);
  const value = useMemo(() => ({ locale: shown, choose }), [shown, choose]);
  return createElement(LocaleContext.Provider, { value }, children);
}

/** The locale of the enclosing scope, else the page-wide one; and its switch, if any. */
export function useLocaleScope(): LocaleScopeValue {
  const scoped = useContext(LocaleContext);
  const pageWide = useStore($locale);
  return scoped ?? { locale: pageWide };
}

export function useLocale(): Locale {
  return useLocaleScope().locale;
}

/** `t` in this component's locale (keys typed), with a re-render whenever translations change. */
export function useT(): Translate {
  const locale = useLocale();
  const revision = useStore($i18nRevision);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function when the resources change
  return useMemo(() => translatorFor(locale), [locale, revision]);
}

/** `nameText` (names that are data, such as menu plan names) in this component's locale. */
export function useNameText(): (name: string) => string {
  const locale = useLocale();
  const revision = useStore($i18nRevision);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function when the resources change
  return useMemo(() => (name: string) => nameText(name, locale), [locale, revision]);
}

/** `tRule` (validation messages) in this component's locale. */
export function useTRule(): (message: string) => string {
  const locale = useLocale();
  const revision = useStore($i18nRevision);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function when the resources change
  return useMemo(() => (message: string) => translateRule(locale, message), [locale, revision]);
}

/**
 * Loads `namespaces` for `requestedLocale` when it names a supported locale, else for this
 * component's locale, without touching the page-wide locale. Answers true once the namespaces have
 * been loaded (at once when they already were: a component whose texts are there does not first
 * render without them, which would move what follows it one frame later); a later locale change
 * keeps the texts on screen (English until the new ones arrive).
 */
export function useTexts(requestedLocale: string | undefined, ...namespaces: Namespace[]): boolean {
  const scoped = useLocale();
  const locale = isLocale(requestedLocale) ? requestedLocale : scoped;
  const names = namespaces.join(' ');
  const [loadedNames, setLoadedNames] = useState<string>();
  useEffect(() => {
    let current = true;
    void loadTexts(locale, ...(names.split(' ') as Namespace[])).then(() => {
      if (current) setLoadedNames(names);
    });
    return () => {
      current = false;
    };
  }, [locale, names]);
  return loadedNames === names || textsLoaded(locale, ...namespaces);
}
