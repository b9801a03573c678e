// The attributes of <iam-password-dialog> (the entries of ../attribute-spec.ts).
import { connection, open, type AttributeTable } from '../attribute-spec';

export const passwordDialogAttributes = {
  ...connection,
  open,
  mode: { property: 'mode', type: 'string', values: ['self', 'user'], default: 'self', description: "Own password or a user's." },
  'user-id': { property: 'userId', type: 'string', description: 'The user whose password is reset (mode `user`).' },
  username: { property: 'username', type: 'string', description: 'Their username, shown in the dialog (mode `user`).' },
} as const satisfies AttributeTable;
