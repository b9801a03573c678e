// The React host demo (demo/react-host/main.tsx) bundled with esbuild into dist/demo/, served as
// /dist/demo/react-host.js. `npm run build` calls it after the elements' bundle.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Answers whether the demo bundle was written. */
export async function buildDemos() {
  try {
    await build({
      absWorkingDir: root,
      entryPoints: { 'react-host': 'demo/react-host/main.tsx' },
      outdir: 'dist/demo',
      bundle: true,
      format: 'esm',
      minify: true,
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'warning',
    });
    return true;
  } catch (error) {
    console.error(`demo build failed: ${error.message}`);
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = (await buildDemos()) ? 0 : 1;
