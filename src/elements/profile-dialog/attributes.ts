// The attributes of <iam-profile-dialog> (the entries of ../attribute-spec.ts).
import { connection, open, type AttributeTable } from '../attribute-spec';

export const profileDialogAttributes = { ...connection, open } as const satisfies AttributeTable;
