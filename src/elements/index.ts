// Entry `iam-console/elements`: defines every iam-* element.
import { defineIamLogin } from './iam-login';

export type * from './types';
export { IamLoginElement } from './iam-login';
// Defines <iam-provider> first, so that the elements below find it when they connect.
export { IamProviderElement, iamContext, type IamContext, type IamProvided } from './provider';
// Defines <iam-console> when imported.
export { IamConsoleElement } from './console';

defineIamLogin();
