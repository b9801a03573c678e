// What <iam-profile-dialog> and <iam-password-dialog> render around their dialog: the API
// connection, the texts, the session (read when the dialog opens on a page that has not read it),
// and a portal container inside the element's shadow root.
import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useStore } from '../store';
import { defaultLocale } from '../../core/i18n';
import { $session, reload } from '../../core/session';
import { ConsoleContext, type Connection, type ConsoleEnvironment } from '../app/context';
import { LocaleScope, useTexts } from '../i18n';
import { connect } from '../login/connect';

export interface DialogElementProps extends Connection {
  locale?: string;
  open?: boolean;
  /** The dialog closed itself (Esc, Cancel, the close button, or after success). */
  onClose?: () => void;
}

export function DialogElementRoot({
  apiBase,
  authMode,
  tokenName,
  locale,
  open = false,
  onClose,
  children,
}: DialogElementProps & { children: (onOpenChange: (open: boolean) => void) => ReactNode }) {
  const ready = useTexts(locale || defaultLocale, 'console');
  const status = useStore($session).status;
  const [portalContainer, setPortalContainer] = useState<HTMLElement | null>(null);
  useMemo(() => connect({ apiBase, authMode, tokenName }), [apiBase, authMode, tokenName]);

  useEffect(() => {
    if (open && status === 'unknown') reload().catch(() => undefined);
  }, [open, status]);

  const environment = useMemo<ConsoleEnvironment>(
    () => ({ connection: { apiBase, authMode, tokenName }, portalContainer, theme: 'dark', setTheme: () => undefined, uiEmbed: true, routing: 'memory' }),
    [apiBase, authMode, tokenName, portalContainer],
  );

  const onOpenChange = (next: boolean) => {
    if (!next) onClose?.();
  };

  return (
    <LocaleScope locale={locale}>
      <ConsoleContext.Provider value={environment}>
        {ready && open && status === 'authenticated' && <Suspense fallback={null}>{children(onOpenChange)}</Suspense>}
        <div ref={setPortalContainer} />
      </ConsoleContext.Provider>
    </LocaleScope>
  );
}
