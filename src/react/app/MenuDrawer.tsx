// The side menu on narrow screens (< 992 px): a modal drawer from the left (Radix Dialog: Esc and
// the scrim close it; useShadowModal keeps the focus inside it within the shadow root). It closes
// again on every route change (useSidebar).
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { useShadowModal } from '../dialogs/modalFocus';
import { useT } from '../i18n';
import * as ui from '../widgets/ui.css';
import { useConsole } from './context';
import * as styles from './shell.css';

export default function MenuDrawer({ open, onOpenChange, children }: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  const t = useT();
  const { portalContainer } = useConsole();
  const modal = useShadowModal(styles.drawerOverlay);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal container={portalContainer ?? undefined}>
        <Dialog.Overlay className={styles.drawerOverlay} />
        <Dialog.Content {...modal} className={styles.drawer} aria-describedby={undefined}>
          <Dialog.Title className={ui.visuallyHidden}>{t('console:menu.label')}</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
