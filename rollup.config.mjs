// The production builds: ESM with code splitting, minified. Entries: `elements` (defines every
// element), `login` (only <iam-login>, kept small), `core` (the framework-agnostic core) and `react`
// (the React components for React hosts). Two builds of the same entries:
// - the self-contained bundle (default export) in dist/, React included, with source maps: what
//   the server serves under /dist/ for `<script type="module">` on any page (the size budgets of
//   scripts/check-bundle.mjs are measured on it);
// - the package build (`packageConfig`) in packages/iam-console/dist/, with React and react-dom
//   left as imports (peer dependencies), so a host's bundler ships the host's one React and the
//   React components render in the host's tree.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import nodeResolve from '@rollup/plugin-node-resolve';
import commonjs from '@rollup/plugin-commonjs';
import replace from '@rollup/plugin-replace';
import esbuild from 'rollup-plugin-esbuild';
import { vanillaExtractPlugin } from '@vanilla-extract/rollup-plugin';

const fromRoot = (path) => fileURLToPath(new URL(path, import.meta.url));

const entries = {
  elements: 'src/elements/index.ts',
  login: 'src/elements/login.ts',
  core: 'src/core/index.ts',
  react: 'src/react/index.ts',
};

/** The module that receives the compiled CSS (src/react/theme/sheet.ts). */
const styleSheetModule = fromRoot('./src/react/theme/sheet.ts');
const cssModulePrefix = '\0iam-css:';

/**
 * vanilla-extract compiles each `*.css.ts` file into JS plus a side-effect import of a virtual
 * `….vanilla.css?source=…` file, which its own plugin resolves to an external .css file. This
 * plugin resolves those imports first and turns each into a module that hands the minified CSS
 * text to the shared constructed stylesheet, so no .css file or <style> element reaches the
 * page, and the CSS travels in the chunk whose code uses it (lazy screens bring their own).
 */
function adoptedCss() {
  const cssById = new Map();
  return {
    name: 'iam-adopted-css',
    async resolveId(source, importer, options) {
      if (!/\.vanilla\.css\?source=/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const css = resolved?.meta?.css;
      if (typeof css !== 'string') this.error(`vanilla-extract gave no CSS for ${source.split('?')[0]}`);
      const id = cssModulePrefix + resolved.id;
      cssById.set(id, css);
      return { id, moduleSideEffects: true };
    },
    async load(id) {
      if (!id.startsWith(cssModulePrefix)) return null;
      const { code: css } = await transform(cssById.get(id), { loader: 'css', minify: true });
      return {
        code: `import { registerCss } from ${JSON.stringify(styleSheetModule)};\nregisterCss(${JSON.stringify(css.trim())});\n`,
        map: { mappings: '' },
      };
    },
  };
}

/** react-style-singleton injects <style> elements (refused under CSP `style-src 'self'`): its
 *  singleton module is replaced by src/react/theme/stylesheetSingleton.ts (same API). */
function cspSafeStyleSingleton() {
  const replacement = fromRoot('./src/react/theme/stylesheetSingleton.ts');
  return {
    name: 'iam-csp-safe-style-singleton',
    resolveId(source, importer) {
      return source === './singleton' && importer?.includes('/react-style-singleton/') ? replacement : null;
    },
  };
}

/**
 * valibot ships as one module, and rollup puts a module in one chunk with every function that any
 * entry or screen uses: the sign-in entry would carry the validators of every form (≈2.7 KiB
 * instead of ≈1.4). The sign-in rules and the form that checks them therefore import a copy of
 * their own (the same file under a second module id), which keeps only what they use. Schemas of
 * the two copies work together: a schema is a plain object that runs itself (`~run`).
 */
function signInValibot() {
  const importers = new Set([fromRoot('./src/core/validation/login.ts'), fromRoot('./src/react/login/validateLogin.ts')]);
  const suffix = '?iam-sign-in';
  return {
    name: 'iam-sign-in-valibot',
    async resolveId(source, importer, options) {
      if (source !== 'valibot' || !importers.has(importer)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && { ...resolved, id: resolved.id + suffix };
    },
    load(id) {
      return id.endsWith(suffix) ? readFile(id.slice(0, -suffix.length), 'utf8') : null;
    },
  };
}

/**
 * Radix's packages are compiled with esbuild's keepNames: every function and class is followed by
 * a module-level `__name(fn, "fn")` call (and a `static { __name(this, …) }` block), which only
 * sets `fn.name` for debugging but counts as a side effect, so nothing of those modules can be
 * tree-shaken (≈4 KiB min+gzip of the console's first visit, 1–2 KiB of each dialog). Declaring
 * `__name` pure drops the calls whose function is otherwise unused.
 */
const pureFunctions = ['__name'];

/** Radix's `aria-hidden` import resolved to src/react/dialogs/hide-others.ts, which walks shadow
 *  roots too (an element inside a host's shadow root keeps its open dialog in the accessibility
 *  tree); that module itself imports the real package. */
function hideOthersAcrossShadowRoots() {
  const module = fromRoot('./src/react/dialogs/hide-others.ts');
  return {
    name: 'hide-others-across-shadow-roots',
    resolveId(source, importer) {
      return source === 'aria-hidden' && importer !== module ? module : null;
    },
  };
}

/**
 * A call declaration (src/core/contract) names the schemas of its call, but a browser bundle reads
 * only its method and path. Each import of a schema module by a declaration goes through a
 * side-effect-free proxy of that module, so unless a bundle reads a schema through the declaration
 * (none does), the declaration does not reach the schema module: the sign-in entry, which calls
 * /authc/login, neither loads the schemas of the whole sign-in nor shares a chunk with the screens
 * that validate with them. Other imports of the schema modules are left as they are.
 */
function declarationsReachSchemasOnlyWhenRead() {
  const contractDir = fromRoot('./src/core/contract/');
  const prefix = '\0contract-schema:';
  return {
    name: 'declarations-reach-schemas-only-when-read',
    async resolveId(source, importer, options) {
      if (!importer?.startsWith(contractDir) || !source.startsWith('../schemas/')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && { id: prefix + resolved.id, moduleSideEffects: false };
    },
    load(id) {
      return id.startsWith(prefix) ? { code: `export * from ${JSON.stringify(id.slice(prefix.length))};\n`, map: { mappings: '' } } : null;
    },
  };
}

/** One build of the entries into `dir`; `external` names the imports left to the host.
 *  `browserOnly`: the self-contained bundle, which only a browser loads (a <script> tag), so
 *  src/elements/define.ts's check for a DOM (a host's server render imports the package's
 *  entries in Node) folds away: the sign-in entry's budget has no room for it. */
function bundleConfig({ dir, sourcemap, external, browserOnly = false }) {
  return {
    input: Object.fromEntries(Object.entries(entries).filter(([, path]) => existsSync(fromRoot(`./${path}`)))),
    output: {
      dir,
      format: 'es',
      sourcemap,
      entryFileNames: '[name].js',
      // Locale files are named by locale and namespace (`chunks/locale-zh-login-….js`).
      chunkFileNames: ({ facadeModuleId }) => {
        const locale = /locales\/(\w+)\/(\w+)\.json$/.exec(facadeModuleId ?? '');
        return locale ? `chunks/locale-${locale[1]}-${locale[2]}-[hash].js` : 'chunks/[name]-[hash].js';
      },
    },
    // A warning in the production build is a defect to fix, not noise. The one exception: React
    // libraries mark their modules "use client" (for server components), which means nothing here.
    onwarn(warning) {
      if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && /"use client"/.test(warning.message)) return;
      throw new Error(`rollup: ${warning.message}`);
    },
    external,
    treeshake: { manualPureFunctions: pureFunctions },
    plugins: [
      declarationsReachSchemasOnlyWhenRead(),
      hideOthersAcrossShadowRoots(),
      adoptedCss(),
      cspSafeStyleSingleton(),
      signInValibot(),
      vanillaExtractPlugin({ identifiers: 'short' }),
      replace({
        preventAssignment: true,
        values: { 'process.env.NODE_ENV': JSON.stringify('production'), ...(browserOnly ? { 'typeof HTMLElement': JSON.stringify('function') } : {}) },
      }),
      nodeResolve({ browser: true, extensions: ['.mjs', '.js', '.ts', '.tsx', '.json'] }),
      commonjs(),
      esbuild({
        target: 'es2022',
        minify: true,
        legalComments: 'none',
        loaders: { '.json': 'json' },
      }),
    ],
  };
}

/** What the package build leaves to the host's bundler: React and react-dom with their subpaths
 *  (`react/jsx-runtime`, `react-dom/client`), peer dependencies, and nanostores, a dependency whose
 *  store types the core's typings name (`$locale`). valibot stays bundled (the sign-in form keeps a
 *  copy of only the validators it uses, see signInValibot; left to the host, a React host paid
 *  32.2 KiB instead of 30.8 for the login entry and 55.1 instead of 56.9 for the elements: no
 *  clear gain); it is a dependency only because the typings name its types (the wire types are
 *  inferred from the schemas). */
const hostModules = /^(react|react-dom|nanostores)(\/|$)/;

export default bundleConfig({ dir: 'dist', sourcemap: true, browserOnly: true });
export const packageConfig = bundleConfig({ dir: 'packages/iam-console/dist', sourcemap: false, external: (id) => hostModules.test(id) });
