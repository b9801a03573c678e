// Entry `iam-console/login`: defines only <iam-login> (kept small: see the size budget in
// scripts/check-bundle.mjs).
import { defineIamLogin } from './iam-login';

export type * from './types';
export { IamLoginElement } from './iam-login';

defineIamLogin();
