// Registers <iam-console> and the account dialogs it ships with, <iam-profile-dialog> and
// <iam-password-dialog> (the `elements` entry imports this module once).
import { defineIamConsole } from './iam-console';
import '../profile-dialog';
import '../password-dialog';

export { IamConsoleElement } from './iam-console';

defineIamConsole();
