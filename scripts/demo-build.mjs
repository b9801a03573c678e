// The framework host demos (demo/react-host/main.tsx, demo/vue-host/main.ts), bundled with esbuild
// into dist/demo/ and served as /dist/demo/<name>.js. `npm run build` calls it after the elements'
// bundle. The elements themselves are not in these bundles: the pages load /dist/elements.js.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each host: its entry and the compile-time constants its framework reads. */
const hosts = {
  'react-host': { entry: 'demo/react-host/main.tsx', define: {} },
  // Vue's esm-bundler build (runtime only: no template compiler, which needs `new Function`).
  'vue-host': {
    entry: 'demo/vue-host/main.ts',
    define: { __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
  },
};

/** Bundles one host page's application for production. */
function buildHost(name, { entry, define }) {
  return build({
    absWorkingDir: root,
    entryPoints: { [name]: entry },
    outdir: 'dist/demo',
    bundle: true,
    format: 'esm',
    minify: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"', ...define },
    logLevel: 'warning',
  });
}

/** Answers whether every demo bundle was written. */
export async function buildDemos() {
  const results = await Promise.allSettled(Object.entries(hosts).map(([name, host]) => buildHost(name, host)));
  const failures = results.filter((result) => result.status === 'rejected');
  for (const failure of failures) console.error(`demo build failed: ${failure.reason.message}`);
  return failures.length === 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = (await buildDemos()) ? 0 : 1;
