// Compiles the server (server/main.ts and what it imports from src/core) into dist-server/main.js
// with esbuild: ESM for Node 20 and later, with a `#!` line (it is the `iam-console-server` command of
// packages/server). Native addons, packages that read their own files and the libraries loaded on first
// use stay external (installed by npm); the rest is bundled. What the server imports on first use
// (server/lazy.ts, the PostgreSQL driver) is split into chunks of its own, loaded with it.
import { chmodSync, cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

// @peculiar/x509 (the SAML signing certificates, server/saml/keys.ts) is CommonJS imported with
// `import()`: bundled, esbuild hands it over as `default` only (no `cryptoProvider`, every SAML answer
// failed), while Node's own loader gives its named exports.
const EXTERNAL = [
  'iam-console-sqlite-node20',
  'better-sqlite3-node22',
  '@node-rs/argon2',
  'pg',
  'oidc-provider',
  'openid-client',
  'nodemailer',
  'svg-captcha',
  '@resvg/resvg-js',
  'sanitize-html',
  '@peculiar/x509',
];
// Fastify's own schema compilers (ajv, fast-json-stringify: about 370 KiB that every start would
// parse) are required only when the application gives no compilers of its own; server/app.ts gives
// its own (`descriptionOnlySchemas`), so they are left to node_modules and never loaded.
const NEVER_LOADED = ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'];

/**
 * @fastify/static requires glob when it loads but calls it only to list a folder's files for
 * `wildcard: false`, which no registration here sets (server/app.ts, server/http/bundle-files.ts).
 * glob (about 90 KiB, some 10 ms of every start) is replaced by a stand-in that loads it from
 * node_modules on first call.
 */
const globOnFirstCall = {
  name: 'glob-on-first-call',
  setup(context) {
    context.onResolve({ filter: /^glob$/ }, (args) => {
      if (args.namespace === 'glob-on-first-call') return { path: 'glob', external: true };
      return /[\\/]@fastify[\\/]static[\\/]/.test(args.importer) ? { path: 'glob', namespace: 'glob-on-first-call' } : undefined;
    });
    context.onLoad({ filter: /.*/, namespace: 'glob-on-first-call' }, () => ({
      contents: "module.exports = { glob: (...args) => require('glob').glob(...args) };",
      loader: 'js',
    }));
  },
};

const started = Date.now();
const root = new URL('..', import.meta.url).pathname;
rmSync(`${root}dist-server`, { recursive: true, force: true });
await build({
  entryPoints: [`${root}server/main.ts`],
  outdir: `${root}dist-server`,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native addons, packages that read their own files at run time, and the libraries loaded on
  // first use stay in node_modules; the rest is bundled (see the header).
  external: [...EXTERNAL, ...NEVER_LOADED],
  plugins: [globOnFirstCall],
  // Bundled CommonJS packages require Node's own modules.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __iamCreateRequire } from 'node:module'; const require = __iamCreateRequire(import.meta.url);",
  },
  sourcemap: true,
  // Less to read and parse at every start; names are kept for stacks and libraries that read them.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
cpSync(`${root}server/public`, `${root}dist-server/public`, { recursive: true });
// The package's command (`bin`): executable, so that `npx iam-console-server` runs it from the workspace
// as well as from an install (npm sets the mode only when it installs a package).
chmodSync(`${root}dist-server/main.js`, 0o755);
console.log(`esbuild: server → dist-server/main.js in ${((Date.now() - started) / 1000).toFixed(1)} s`);
