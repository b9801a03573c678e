// The account dialogs, loaded when first opened (they are not part of the first load).
import { lazy, Suspense } from 'react';
import { useStore } from '../store';
import { logout } from '../../core/session';
import { useT } from '../i18n';
import { $accountDialog, closeAccountDialog } from './accountDialogState';
import { useConsole } from './context';

const ProfileDialog = lazy(() => import('../dialogs/ProfileDialog'));
const PasswordDialog = lazy(() => import('../dialogs/PasswordDialog'));
const ConfirmDialog = lazy(() => import('../dialogs/ConfirmDialog'));

export function AccountDialogs() {
  const t = useT();
  const dialog = useStore($accountDialog);
  const { onLogout } = useConsole();
  const onOpenChange = (open: boolean) => {
    if (!open) closeAccountDialog();
  };

  const signOut = async () => {
    const redirectURL = await logout();
    onLogout?.({ redirectURL });
  };

  return (
    <Suspense fallback={null}>
      {dialog === 'profile' && <ProfileDialog open onOpenChange={onOpenChange} />}
      {dialog === 'password' && <PasswordDialog open mode="self" onOpenChange={onOpenChange} onChanged={() => onLogout?.({ redirectURL: '/login' })} />}
      {dialog === 'logout' && (
        <ConfirmDialog
          open
          onOpenChange={onOpenChange}
          title={t('console:user.logout')}
          question={t('console:user.logoutQuestion')}
          confirmLabel={t('console:user.logout')}
          onConfirm={signOut}
        />
      )}
    </Suspense>
  );
}
