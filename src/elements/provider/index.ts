// Registers <iam-provider> when imported.
import { defineIamProvider } from './iam-provider';

export { IamProviderElement } from './iam-provider';
export { iamContext, type IamContext, type IamProvided } from './context';

defineIamProvider();
