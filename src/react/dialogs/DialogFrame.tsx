// The frame every console dialog uses: Radix Dialog (focus trapped, Esc closes, titled), portalled
// into the console's own root so the shadow root's stylesheet applies.
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { useConsole } from '../app/context';
import { useT } from '../i18n';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import * as styles from './dialog.css';

export interface DialogFrameProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  size?: 'normal' | 'small';
  children: ReactNode;
}

/** The focused element, looked for through shadow roots (document.activeElement stops at a host). */
function deepActiveElement(): HTMLElement | null {
  let element = document.activeElement;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  return element instanceof HTMLElement ? element : null;
}

export function DialogFrame({ open, onOpenChange, title, description, size = 'normal', children }: DialogFrameProps) {
  const { portalContainer } = useConsole();
  const t = useT();
  // Radix gives the focus back to what document.activeElement was, which inside a shadow root is
  // the <iam-console> host: remember the real opener and return the focus to it (WCAG 2.4.3).
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal container={portalContainer ?? undefined}>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          part="dialog"
          className={`${styles.content} ${size === 'small' ? styles.small : ''}`}
          // Without a description the content is named by its title only.
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={() => {
            opener.current = deepActiveElement();
          }}
          onCloseAutoFocus={(event) => {
            if (!opener.current?.isConnected) return;
            event.preventDefault();
            opener.current.focus();
          }}
        >
          <div className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            <Dialog.Close className={ui.iconButton} aria-label={t('console:action.close')}>
              <Icon name="close" />
            </Dialog.Close>
          </div>
          <div className={styles.body}>
            {description && <Dialog.Description className={styles.description}>{description}</Dialog.Description>}
            {children}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
