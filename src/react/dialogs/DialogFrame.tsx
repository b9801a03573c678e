// The frame every console dialog uses: Radix Dialog (Esc closes, titled), portalled into the
// console's own root so the shadow root's stylesheet applies. Modal for keyboards and screen
// readers inside that shadow root, where Radix's focus trap cannot see the focus (modalFocus.ts):
// Tab cycles inside, the first field takes the focus, the rest of the console is inert.
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useConsole } from '../app/context';
import { useT } from '../i18n';
import { deepActiveElement } from '../widgets/focus';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import * as styles from './dialog.css';
import { focusInitial, inertOutside, keepTabInside } from './modalFocus';

export interface DialogFrameProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  size?: 'normal' | 'small';
  children: ReactNode;
}

export function DialogFrame({ open, onOpenChange, title, description, size = 'normal', children }: DialogFrameProps) {
  const { portalContainer } = useConsole();
  const t = useT();
  // Radix gives the focus back to what document.activeElement was, which inside a shadow root is
  // the <iam-console> host: remember the real opener and return the focus to it (WCAG 2.4.3).
  const opener = useRef<HTMLElement | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  useEffect(() => (content ? inertOutside(content, (element) => element.classList.contains(styles.overlay)) : undefined), [content]);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal container={portalContainer ?? undefined}>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          ref={setContent}
          part="dialog"
          aria-modal="true"
          className={`${styles.content} ${size === 'small' ? styles.small : ''}`}
          // Without a description the content is named by its title only.
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            opener.current = deepActiveElement();
            focusInitial(event.currentTarget as HTMLElement, body.current);
          }}
          onKeyDown={(event) => keepTabInside(event.nativeEvent, event.currentTarget)}
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
          <div ref={body} className={styles.body}>
            {description && <Dialog.Description className={styles.description}>{description}</Dialog.Description>}
            {children}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
