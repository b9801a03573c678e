// Options of @custom-elements-manifest/analyzer for scripts/manifest.mjs. `packagejson: false`:
// the analyzer would otherwise rewrite package.json (its customElements field is kept by hand).
export default {
  globs: ['src/elements/**/*.ts'],
  outdir: '.',
  packagejson: false,
};
