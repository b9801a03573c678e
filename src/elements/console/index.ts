// Registers <iam-console> (imported once by the `elements` entry).
import { defineIamConsole } from './iam-console';

export { IamConsoleElement } from './iam-console';

defineIamConsole();
