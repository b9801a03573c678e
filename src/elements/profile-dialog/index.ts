// Registers <iam-profile-dialog> when imported.
import { defineIamProfileDialog } from './iam-profile-dialog';

defineIamProfileDialog();
