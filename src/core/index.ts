// `iam-console/core`: the framework-agnostic core, for hosts that build their own UI.
export type * from './types';
export * from './enums';
// enums.ts and types.ts both name the user type; the enum (value and type) is the public one.
export { UserType } from './enums';
export * from './config';
export * from './config-store';
export * from './rule-message';
export * from './validation';
export * from './validation/user';
export * from './i18n';
export * from './password';
export * from './acl';
export * from './routes';
export * from './format';
export * from './upload';
export * from './messages';
export * from './navigation';
export * from './http';
export * from './session';
export * as api from './api';
