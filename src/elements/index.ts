// Entry `iam-console/elements`: defines every iam-* element.
import { defineIamLogin } from './iam-login';

export type * from './types';
export { IamLoginElement } from './iam-login';
// Defines <iam-console> when imported.
export { IamConsoleElement } from './console';

defineIamLogin();
