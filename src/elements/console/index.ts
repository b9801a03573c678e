// Registers <iam-console> and the account dialogs it ships with, <iam-profile-dialog> and
// <iam-password-dialog> (the `elements` entry imports this module once).
import { defineIamConsole } from './iam-console';

export { IamConsoleElement } from './iam-console';
export { IamProfileDialogElement } from '../profile-dialog';
export { IamPasswordDialogElement } from '../password-dialog';

defineIamConsole();
