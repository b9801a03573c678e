// React access to the core's i18n: components re-render when the language or the loaded
// resources change ($i18nRevision), and wait for the texts they show before they render.
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $i18nRevision, loadNamespaces, locales, nameText, setLocale, t, type Locale, type Namespace } from '../core/i18n';

/** The core's `t`, with a re-render whenever translations change. */
export function useT(): typeof t {
  useStore($i18nRevision);
  return t;
}

/** The core's `nameText` (names that are data, such as menu plan names), with the same re-render. */
export function useNameText(): typeof nameText {
  useStore($i18nRevision);
  return nameText;
}

function isLocale(value: string | undefined): value is Locale {
  return locales.some((locale) => locale === value);
}

/**
 * Loads `namespaces` and, when `requestedLocale` names a supported locale, switches the
 * (page-wide) locale to it. Answers true once the texts can be shown: the namespaces are loaded
 * and the locale is the requested one. Later locale changes keep the current texts on screen
 * until the new ones are there.
 */
export function useTexts(requestedLocale: string | undefined, ...namespaces: Namespace[]): boolean {
  const wantedLocale = isLocale(requestedLocale) ? requestedLocale : undefined;
  const key = namespaces.join(' ');
  const [loadedKey, setLoadedKey] = useState<string>();
  useEffect(() => {
    let current = true;
    // Namespaces first: loadNamespaces registers them at once, so the locale switch loads them too.
    const loading = loadNamespaces(...(key.split(' ').filter(Boolean) as Namespace[]));
    const switching = wantedLocale ? setLocale(wantedLocale) : undefined;
    void Promise.all([loading, switching]).then(() => {
      if (current) setLoadedKey(key);
    });
    return () => {
      current = false;
    };
  }, [key, wantedLocale]);
  return loadedKey === key;
}
