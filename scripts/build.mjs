// `npm run build`: the self-contained browser bundle with rollup (rollup.config.mjs) into dist/,
// the bundle checks and size budgets (scripts/check-bundle.mjs), the package build (React left to
// the host) into packages/iam-console/dist/, custom-elements.json (scripts/manifest.mjs), the
// published typings (tsconfig.types.json → packages/iam-console/dist/types), the host demos
// (scripts/demo-build.mjs), the server build, the Brotli and gzip copies of dist/
// (scripts/precompress.mjs), and finally the two packages' folders (scripts/stage-packages.mjs).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import config, { packageConfig } from '../rollup.config.mjs';
import { reportBundle } from './check-bundle.mjs';
import { buildDemos } from './demo-build.mjs';
import { writeManifest } from './manifest.mjs';
import { precompress } from './precompress.mjs';
import { stagePackages } from './stage-packages.mjs';
import { addTypingExtensions, declareTexts, pruneUnreachableTypings } from './typings-extensions.mjs';

async function buildBrowserBundle(options) {
  const started = Date.now();
  rmSync(options.output.dir, { recursive: true, force: true });
  let bundle;
  try {
    bundle = await rollup(options);
    await bundle.write(options.output);
  } catch (error) {
    const where = [error.plugin && `plugin ${error.plugin}`, error.id].filter(Boolean).join(', ');
    console.error(`rollup failed${where ? ` (${where})` : ''}:\n${error.message}`);
    return false;
  } finally {
    await bundle?.close();
  }
  console.log(`rollup: ${Object.keys(options.input).join(', ')} → ${options.output.dir}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** The .d.ts files package.json's exports name (`types`), emitted by tsc from the entries, and those they import. */
function buildTypes() {
  const started = Date.now();
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const ok =
    spawnSync(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) }).status === 0;
  if (!ok) return false;
  const types = fileURLToPath(new URL('../packages/iam-console/dist/types', import.meta.url));
  declareTexts(fileURLToPath(new URL('../src/core/i18n/locales/en', import.meta.url)), join(types, 'core/i18n/locales/en'));
  addTypingExtensions(types);
  const entries = JSON.parse(readFileSync(new URL('../tsconfig.types.json', import.meta.url), 'utf8')).files.map((file) =>
    file.replace(/^src\//, '').replace(/\.ts$/, '.d.ts'),
  );
  const removed = pruneUnreachableTypings(types, entries);
  console.log(`typings: ${removed} .d.ts files no entry reaches left out`);
  console.log(`tsc: typings → packages/iam-console/dist/types/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

function buildServer() {
  const script = new URL('./build-server.mjs', import.meta.url);
  if (!existsSync(script)) return true;
  return spawnSync(process.execPath, [script.pathname], { stdio: 'inherit' }).status === 0;
}

// Once the bundle is written, every later step runs (an exceeded budget still leaves a usable
// dist/, manifest, demo and server build); any failure fails the build.
async function buildAfterBundle() {
  const steps = [
    reportBundle(config.output.dir),
    await buildBrowserBundle(packageConfig),
    await writeManifest(),
    buildTypes(),
    await buildDemos(),
    buildServer(),
  ];
  if (!steps.every(Boolean)) return false;
  console.log(`precompress: ${precompress(config.output.dir)} files of ${config.output.dir}/ → .br, .gz`);
  stagePackages();
  return true;
}

// exitCode rather than exit(): esbuild's service must wind down on its own.
process.exitCode = (await buildBrowserBundle(config)) && (await buildAfterBundle()) ? 0 : 1;
