// Libraries a server at rest does not need (the OIDC provider, mail, captcha fonts, SVG cleaning,
// image parsing, the other database's driver) are imported on first use: a smaller, faster start.
// The compiled server (scripts/build-server.mjs) leaves packages external, so each import() here
// stays a real import at run time.

/** `load`, run once on the first call; every later call shares its promise. A failed load is
 *  tried again on the next call. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}

/** The reflect-metadata polyfill, which @peculiar/x509's container needs loaded before it (the SAML
 *  keys, server/saml/keys.ts, and @simplewebauthn/server's certificate checks). */
export const reflectMetadata = lazy(() => import('reflect-metadata'));
