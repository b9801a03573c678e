// Which account dialog is open (profile, own password, logout confirmation). Any part of the
// console opens one here (the user menu, the personal center); AccountDialogs renders it.
import { atom } from 'nanostores';

export type AccountDialog = 'profile' | 'password' | 'logout';

export const $accountDialog = atom<AccountDialog | undefined>(undefined);

export function openAccountDialog(dialog: AccountDialog): void {
  $accountDialog.set(dialog);
}

export function closeAccountDialog(): void {
  $accountDialog.set(undefined);
}
