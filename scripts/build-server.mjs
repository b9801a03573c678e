// Compiles the server (server/main.ts and what it imports from src/core) into dist-server/main.js
// with esbuild: one ESM file for Node 20 and later, packages left external (installed by npm), with
// a `#!` line: it is the `iam-console-server` command of packages/server.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const started = Date.now();
const root = new URL('..', import.meta.url).pathname;
rmSync(`${root}dist-server`, { recursive: true, force: true });
await build({
  entryPoints: [`${root}server/main.ts`],
  outfile: `${root}dist-server/main.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
cpSync(`${root}server/public`, `${root}dist-server/public`, { recursive: true });
console.log(`esbuild: server → dist-server/main.js in ${((Date.now() - started) / 1000).toFixed(1)} s`);
