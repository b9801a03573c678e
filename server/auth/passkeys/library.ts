// @simplewebauthn/server, loaded on first use (server/lazy.ts). Its certificate checks use
// @peculiar/x509, which the compiled server leaves external (scripts/build-server.mjs) and whose
// container throws unless the reflect-metadata polyfill was loaded before it: it is, here.
import { lazy, reflectMetadata } from '../../lazy';

export const webauthnLibrary = lazy(async () => {
  await reflectMetadata();
  return import('@simplewebauthn/server');
});

export const webauthnHelpers = lazy(async () => {
  await reflectMetadata();
  return import('@simplewebauthn/server/helpers');
});
