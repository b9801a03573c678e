// Typed API modules, one per resource.
export * as auth from './auth';
export * as users from './users';
export * as license from './license';
export * as thirdParty from './third-party';
export * as idps from './idps';
export * as files from './files';
export * as captcha from './captcha';
export * as menus from './menus';
export * as account from './account';
