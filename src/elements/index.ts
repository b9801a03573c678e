// Entry `iam-console/elements`: defines every iam-* element.
import { defineIamLogin } from './iam-login';

export type * from './types';
export { IamLoginElement } from './iam-login';

defineIamLogin();
