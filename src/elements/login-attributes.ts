// The attributes of <iam-login> (the entries of ./attribute-spec.ts).
import { connection, type AttributeTable } from './attribute-spec';

export const loginAttributes = {
  ...connection,
  redirect: { property: 'redirect', type: 'string', elementOnly: true, description: 'Where to go after a successful sign-in (same origin only).' },
} as const satisfies AttributeTable;
