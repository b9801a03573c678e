// Registers <iam-password-dialog> when imported.
import { defineIamPasswordDialog } from './iam-password-dialog';

defineIamPasswordDialog();
