// The frame every console dialog uses: Radix Dialog (Esc closes, titled), portalled into the
// console's own root so the shadow root's stylesheet applies. Modal for keyboards and screen
// readers inside that shadow root, where Radix's focus trap cannot see the focus (modalFocus.ts):
// Tab cycles inside, the first field takes the focus, the rest of the console is inert.
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { useConsole } from '../app/context';
import { useT } from '../i18n';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import * as styles from './dialog.css';
import { useShadowModal } from './modalFocus';

export interface DialogFrameProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  /** 'wide': a table of several columns (a log) that would otherwise scroll sideways. */
  size?: 'normal' | 'small' | 'wide';
  children: ReactNode;
}

export function DialogFrame({ open, onOpenChange, title, description, size = 'normal', children }: DialogFrameProps) {
  const { portalContainer } = useConsole();
  const t = useT();
  const body = useRef<HTMLDivElement>(null);
  const modal = useShadowModal(styles.overlay, body);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal container={portalContainer ?? undefined}>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          {...modal}
          part="dialog"
          className={`${styles.content} ${size === 'normal' ? '' : styles[size]}`}
          // Without a description the content is named by its title only.
          {...(description ? {} : { 'aria-describedby': undefined })}
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
