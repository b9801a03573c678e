// The React components behind <iam-profile-dialog> and <iam-password-dialog> (the dialogs load
// when first opened).
import { lazy } from 'react';
import { DialogElementRoot, type DialogElementProps } from './DialogElementRoot';
import type { PasswordMode } from './PasswordDialog';

const ProfileDialog = lazy(() => import('./ProfileDialog'));
const PasswordDialog = lazy(() => import('./PasswordDialog'));

export interface ProfileSavedDetail {
  userId: string;
}
export interface PasswordChangedDetail {
  userId: string;
  mode: PasswordMode;
}

export interface ProfileDialogAppProps extends DialogElementProps {
  onSaved?: (detail: ProfileSavedDetail) => void;
}

export function ProfileDialogApp({ onSaved, ...root }: ProfileDialogAppProps) {
  return <DialogElementRoot {...root}>{(onOpenChange) => <ProfileDialog open onOpenChange={onOpenChange} onSaved={onSaved} />}</DialogElementRoot>;
}

export interface PasswordDialogAppProps extends DialogElementProps {
  /** 'self' (default) or 'user' (an administrator resets another user's password). */
  mode?: string;
  userId?: string;
  username?: string;
  onChanged?: (detail: PasswordChangedDetail) => void;
}

export function PasswordDialogApp({ mode, userId, username, onChanged, ...root }: PasswordDialogAppProps) {
  const dialogMode: PasswordMode = mode === 'user' ? 'user' : 'self';
  return (
    <DialogElementRoot {...root}>
      {(onOpenChange) => <PasswordDialog open mode={dialogMode} userId={userId} username={username} onOpenChange={onOpenChange} onChanged={onChanged} />}
    </DialogElementRoot>
  );
}
