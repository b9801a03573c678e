// The whole console as one React component (what <iam-console> renders into its shadow root):
// HTTP and locale set-up, the branding from the server, the router with the guarded outlet, the
// account dialogs, toasts and the progress bar.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $locale, storedLocale } from '../../core/i18n';
import { $messages } from '../../core/messages';
import type { Theme } from '../../core/enums';
import { useTexts } from '../i18n';
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
  /** 'en' or 'zh'; unset: the person's last choice, else English. */
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
  const [theme, setThemeState] = useState<Theme>(() => (isTheme(requested) ? requested : storedTheme() ?? 'dark'));
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
  const textsReady = useTexts(props.locale || storedLocale(), 'console', 'login');
  const [theme, setTheme] = useTheme(props.theme, onThemeChange);
  const [portalContainer, setPortalContainer] = useState<HTMLElement | null>(null);
  useErrorEvents(onError);
  // The root says which language its texts are in (screen readers pick the voice from it).
  const locale = useStore($locale);

  useEffect(() => {
    void loadBranding();
  }, [apiBase]);

  const environment = useMemo<ConsoleEnvironment>(
    () => ({ connection: { apiBase, authMode, tokenName }, portalContainer, theme, setTheme, uiEmbed, routing, onNavigate, onLogout, onError, onThemeChange }),
    [apiBase, authMode, tokenName, portalContainer, theme, setTheme, uiEmbed, routing, onNavigate, onLogout, onError, onThemeChange],
  );

  return (
    <div className={`${styles.root} ${uiEmbed ? styles.embeddedRoot : ''}`} data-theme={theme} lang={locale}>
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
    </div>
  );
}
