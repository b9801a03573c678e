// `npm run build`: the browser bundle with rollup (rollup.config.mjs) into dist/, the bundle
// checks and size budgets (scripts/check-bundle.mjs), custom-elements.json (scripts/manifest.mjs),
// the published typings (tsconfig.types.json → dist/types), the host demos
// (scripts/demo-build.mjs), then the server build when it exists.
import { existsSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import config from '../rollup.config.mjs';
import { reportBundle } from './check-bundle.mjs';
import { buildDemos } from './demo-build.mjs';
import { writeManifest } from './manifest.mjs';

async function buildBrowserBundle() {
  const started = Date.now();
  rmSync(config.output.dir, { recursive: true, force: true });
  let bundle;
  try {
    bundle = await rollup(config);
    await bundle.write(config.output);
  } catch (error) {
    const where = [error.plugin && `plugin ${error.plugin}`, error.id].filter(Boolean).join(', ');
    console.error(`rollup failed${where ? ` (${where})` : ''}:\n${error.message}`);
    return false;
  } finally {
    await bundle?.close();
  }
  console.log(`rollup: ${Object.keys(config.input).join(', ')} → ${config.output.dir}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** The .d.ts files package.json's exports name (`types`), emitted by tsc from the entries. */
function buildTypes() {
  const started = Date.now();
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const ok = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) }).status === 0;
  if (ok) console.log(`tsc: typings → dist/types/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return ok;
}

function buildServer() {
  const script = new URL('./build-server.mjs', import.meta.url);
  if (!existsSync(script)) return true;
  return spawnSync(process.execPath, [script.pathname], { stdio: 'inherit' }).status === 0;
}

// Once the bundle is written, every later step runs (an exceeded budget still leaves a usable
// dist/, manifest, demo and server build); any failure fails the build.
async function buildAfterBundle() {
  const steps = [reportBundle(config.output.dir), await writeManifest(), buildTypes(), await buildDemos(), buildServer()];
  return steps.every(Boolean);
}

// exitCode rather than exit(): esbuild's service must wind down on its own.
process.exitCode = (await buildBrowserBundle()) && (await buildAfterBundle()) ? 0 : 1;
