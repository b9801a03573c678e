// React access to the core's i18n: components re-render when the language or the loaded
// resources change ($i18nRevision), and can wait for the namespaces they show.
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $i18nRevision, $locale, loadNamespaces, locales, setLocale, t, type Locale, type Namespace } from '../core/i18n';

/** The core's `t`, with a re-render whenever translations change. */
export function useT(): typeof t {
  useStore($i18nRevision);
  return t;
}

/** Loads `namespaces` for the current locale; answers true once they are there. */
export function useNamespaces(...namespaces: Namespace[]): boolean {
  const key = namespaces.join(' ');
  const [loadedKey, setLoadedKey] = useState<string>();
  useEffect(() => {
    let current = true;
    void loadNamespaces(...(key.split(' ') as Namespace[])).then(() => {
      if (current) setLoadedKey(key);
    });
    return () => {
      current = false;
    };
  }, [key]);
  return loadedKey === key;
}

function isLocale(value: string | undefined): value is Locale {
  return locales.some((locale) => locale === value);
}

/**
 * Switches the (page-wide) locale to `requested` when it names a supported one, and answers
 * true once the current locale is the requested one (at once when nothing valid is requested).
 */
export function useRequestedLocale(requested: string | undefined): boolean {
  const current = useStore($locale);
  const wanted = isLocale(requested) ? requested : undefined;
  useEffect(() => {
    if (wanted) void setLocale(wanted);
  }, [wanted]);
  return !wanted || current === wanted;
}
