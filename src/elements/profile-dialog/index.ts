// Registers <iam-profile-dialog> when imported.
import { defineIamProfileDialog } from './iam-profile-dialog';

export { IamProfileDialogElement } from './iam-profile-dialog';

defineIamProfileDialog();
