// `npm run build`: the browser bundle with rollup (rollup.config.mjs) into dist/, the bundle
// checks and size budgets (scripts/check-bundle.mjs), then the server build when it exists.
import { existsSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { rollup } from 'rollup';
import config from '../rollup.config.mjs';
import { reportBundle } from './check-bundle.mjs';

const started = Date.now();
rmSync(config.output.dir, { recursive: true, force: true });
const bundle = await rollup(config);
try {
  await bundle.write(config.output);
} finally {
  await bundle.close();
}
console.log(`rollup: ${Object.keys(config.input).join(', ')} → ${config.output.dir}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);

if (!reportBundle(config.output.dir)) process.exit(1);

const serverBuild = new URL('./build-server.mjs', import.meta.url);
if (existsSync(serverBuild)) {
  const { status } = spawnSync(process.execPath, [serverBuild.pathname], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
