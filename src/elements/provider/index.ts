// Registers <iam-provider> when imported.
import { defineIamProvider } from './iam-provider';

export { IamProviderElement } from './iam-provider';
export type { IamProvided } from './context';

defineIamProvider();
