// The whole console as one React component (what <iam-console> renders into its shadow root):
// HTTP and locale set-up, the branding from the server, the router with the guarded outlet, the
// account dialogs, toasts and the progress bar.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { isLocale, setLocale, storedLocale, type Locale } from '../../core/i18n';
import { $messages } from '../../core/messages';
import type { Theme } from '../../core/enums';
import { LocaleScope, useTexts } from '../i18n';
import { connect } from '../login/connect';
import { ProgressBar } from '../widgets/ProgressBar';
import { Toasts } from '../widgets/Toasts';
import { AccountDialogs } from './AccountDialogs';
import { loadBranding } from './branding';
import { ConsoleContext, type ConsoleEnvironment, type ConsoleEvents } from './context';
import { Outlet } from './Outlet';
import { isTheme, saveTheme, storedTheme } from './preferences';
import { ConsoleRouter, type Routing } from './router';
import * as styles from './shell.css';

export interface ConsoleAppProps extends ConsoleEvents {
  /** Base of the API, default /api. */
  apiBase?: string;
  /** 'en' or 'zh'; unset: the person's last choice in a console's switch, else English (never
   *  another element's locale). */
  locale?: string;
  /** 'dark' (default) or 'light'; unset: the person's last choice. */
  theme?: string;
  /** No top bar and no side menu (the host draws its own chrome). */
  uiEmbed?: boolean;
  /** 'history' (default; standalone) or 'memory' (embedded: the page URL is never touched). */
  routing?: string;
  /** History base path, default '/'. */
  base?: string;
  /** Memory routing: the route to show. */
  route?: string;
  /** 'cookie' (default) or 'token'. */
  authMode?: string;
  /** Token mode: the header that carries the token. */
  tokenName?: string;
}

function useHttpSetup(apiBase: string | undefined, authMode: string | undefined, tokenName: string | undefined): void {
  // Set while rendering, before any child effect can call the API (effects run children first).
  useMemo(() => connect({ apiBase, authMode, tokenName }), [apiBase, authMode, tokenName]);
}

/** The theme: the attribute when given, else the person's last choice, else dark. A switch is
 *  kept and reported to the element, which reflects it to its `theme` attribute. */
function useTheme(requested: string | undefined, onThemeChange: ConsoleEvents['onThemeChange']): [Theme, (theme: Theme) => void] {
  const [theme, setThemeState] = useState<Theme>(() => (isTheme(requested) ? requested : (storedTheme() ?? 'dark')));
  useEffect(() => {
    if (isTheme(requested)) setThemeState(requested);
  }, [requested]);
  useEffect(() => {
    if (theme !== requested) onThemeChange?.(theme);
    // Only on mount: later switches report themselves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const setTheme = useCallback(
    (next: Theme) => {
      setThemeState(next);
      saveTheme(next);
      onThemeChange?.(next);
    },
    [onThemeChange],
  );
  return [theme, setTheme];
}

/** The console's language: the person's switch, else the attribute, else their last choice in a
 *  console's switch, else English. The page-wide locale follows it (without remembering it), for
 *  the core's own messages and the language the server answers in. */
function useConsoleLocale(requested: string | undefined): [Locale, (locale: Locale) => void] {
  const [chosen, setChosen] = useState<Locale>();
  useEffect(() => setChosen(undefined), [requested]);
  const locale = chosen ?? (isLocale(requested) ? requested : (storedLocale() ?? 'en'));
  useEffect(() => void setLocale(locale, { remember: false }), [locale]);
  const choose = useCallback((next: Locale) => {
    // Loads the new texts first, and keeps the person's choice for their next visit.
    void setLocale(next).then(() => setChosen(next));
  }, []);
  return [locale, choose];
}

/** Every error toast is also an `iam-error` event for the host. */
function useErrorEvents(onError: ConsoleEvents['onError']): void {
  useEffect(() => {
    let shown = new Set($messages.get().map((message) => message.id));
    return $messages.listen((messages) => {
      for (const message of messages) if (message.kind === 'error' && !shown.has(message.id)) onError?.({ message: message.text });
      shown = new Set(messages.map((message) => message.id));
    });
  }, [onError]);
}

export function ConsoleApp(props: ConsoleAppProps) {
  const { apiBase, authMode, tokenName, uiEmbed = false, base, route, onNavigate, onLogout, onError, onThemeChange } = props;
  useHttpSetup(apiBase, authMode, tokenName);
  const routing: Routing = props.routing === 'memory' ? 'memory' : 'history';
  const [locale, chooseLocale] = useConsoleLocale(props.locale);
  const textsReady = useTexts(locale, 'console', 'login');
  const [theme, setTheme] = useTheme(props.theme, onThemeChange);
  const [portalContainer, setPortalContainer] = useState<HTMLElement | null>(null);
  useErrorEvents(onError);

  useEffect(() => {
    void loadBranding();
  }, [apiBase]);

  // Standalone, the console owns the page: the page's language is the console's (a screen reader
  // reads <html lang>). Embedded, the host page keeps its own.
  const ownsPage = routing === 'history' && !uiEmbed;
  useEffect(() => {
    if (ownsPage) document.documentElement.lang = locale;
  }, [ownsPage, locale]);

  const environment = useMemo<ConsoleEnvironment>(
    () => ({ connection: { apiBase, authMode, tokenName }, portalContainer, theme, setTheme, uiEmbed, routing, onNavigate, onLogout, onError, onThemeChange }),
    [apiBase, authMode, tokenName, portalContainer, theme, setTheme, uiEmbed, routing, onNavigate, onLogout, onError, onThemeChange],
  );

  return (
    // The root says which language its texts are in (screen readers pick the voice from it).
    <div
      className={[styles.root, uiEmbed && styles.embeddedRoot, (uiEmbed || routing === 'memory') && styles.containedRoot].filter(Boolean).join(' ')}
      data-theme={theme}
      lang={locale}
    >
      <LocaleScope locale={locale} choose={chooseLocale}>
        <ConsoleContext.Provider value={environment}>
          {textsReady ? (
            <>
              <ConsoleRouter routing={routing} base={base} route={route}>
                <Outlet base={base} />
              </ConsoleRouter>
              <AccountDialogs />
              <ProgressBar />
              <Toasts />
            </>
          ) : (
            // Not even the texts of "Loading…" are there yet.
            <div className={styles.loading} aria-busy="true" />
          )}
          <div ref={setPortalContainer} className={styles.portal} />
        </ConsoleContext.Provider>
      </LocaleScope>
    </div>
  );
}
