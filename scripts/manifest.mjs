// custom-elements.json (Custom Elements Manifest, the `customElements` field of package.json):
// the element classes' JSDoc (@tag, @csspart) read by @custom-elements-manifest/analyzer, then every
// element's attributes from the attribute table of src/elements/attributes.ts, its events from the
// events table of src/elements/events.ts and every theme token of src/react/theme/tokens.ts, so that
// none is written twice. Checked to list every element with its attributes and events. `npm run
// build` calls it.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(new URL('../node_modules/@custom-elements-manifest/analyzer/cem.js', import.meta.url));
export const manifestFile = `${root}custom-elements.json`;

/** A TypeScript module that imports nothing, loaded through esbuild (Node runs no TypeScript). */
async function loadTypeScript(path) {
  const { outputFiles } = await build({ entryPoints: [`${root}${path}`], bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'silent' });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
}

/** The attribute table, the events table and the theme tokens, from their TypeScript sources. */
export async function loadSources() {
  const [{ elementAttributes }, { elementEvents }, { tokenList }] = await Promise.all([
    loadTypeScript('src/elements/attributes.ts'),
    loadTypeScript('src/elements/events.ts'),
    loadTypeScript('src/react/theme/tokens.ts'),
  ]);
  return { elementAttributes, elementEvents, tokens: tokenList() };
}

/** The manifest entry of one attribute of the table. */
function attributeEntry(name, spec) {
  return {
    name,
    type: { text: spec.values ? spec.values.map((value) => `'${value}'`).join(' | ') : spec.type },
    description: spec.description,
    ...(spec.default === undefined ? {} : { default: `'${spec.default}'` }),
    fieldName: spec.property,
  };
}

/** The manifest entry of one event of the table. */
function eventEntry(name, spec) {
  return { name, type: { text: `CustomEvent<${spec.detail}>` }, description: spec.description };
}

/** `manifest` with each element's attributes and events from the tables and every theme token
 *  (except on <iam-provider>, which draws nothing). Idempotent: applied to its own output it changes nothing. */
export function withSources(manifest, { elementAttributes, elementEvents, tokens }) {
  const modules = manifest.modules.map((module) => ({
    ...module,
    declarations: (module.declarations ?? []).map((declaration) => {
      const table = declaration.tagName && elementAttributes[declaration.tagName];
      if (!table) return declaration;
      const { attributes: _attributes, events: _events, cssProperties: _cssProperties, ...rest } = declaration;
      const events = Object.entries(elementEvents[declaration.tagName] ?? {}).map(([name, spec]) => eventEntry(name, spec));
      return {
        ...rest,
        attributes: Object.entries(table).map(([name, spec]) => attributeEntry(name, spec)),
        ...(events.length ? { events } : {}),
        ...(declaration.tagName === 'iam-provider' ? {} : { cssProperties: tokens.map(({ name, description }) => ({ name, description })) }),
      };
    }),
  }));
  return { ...manifest, modules };
}

/** The problems of a manifest (none when complete). */
export function problemsOf(manifest, { elementAttributes, elementEvents }) {
  const declarations = manifest.modules.flatMap((module) => module.declarations ?? []).filter((declaration) => declaration.tagName);
  const problems = [];
  for (const tag of Object.keys(elementAttributes)) {
    const element = declarations.find((declaration) => declaration.tagName === tag);
    if (!element) {
      problems.push(`${tag} is missing`);
      continue;
    }
    const has = (list, name) => (list ?? []).some((entry) => entry.name === name);
    for (const name of Object.keys(elementAttributes[tag] ?? {})) if (!has(element.attributes, name)) problems.push(`${tag} lacks attribute ${name}`);
    for (const name of Object.keys(elementEvents[tag] ?? {})) if (!has(element.events, name)) problems.push(`${tag} lacks event ${name}`);
  }
  return problems;
}

/** Writes custom-elements.json at the package root; answers whether it is complete. */
export async function writeManifest() {
  const run = spawnSync(process.execPath, [cli, 'analyze', '--config', 'scripts/custom-elements-manifest.config.mjs'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) {
    console.error(`custom-elements-manifest analyzer failed:\n${run.stderr || run.stdout}`);
    return false;
  }
  const sources = await loadSources();
  const manifest = withSources(JSON.parse(readFileSync(manifestFile, 'utf8')), sources);
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const problems = problemsOf(manifest, sources);
  if (problems.length) console.error(`custom-elements.json is incomplete:\n  - ${problems.join('\n  - ')}`);
  else console.log(`custom-elements.json: ${Object.keys(sources.elementAttributes).join(', ')}`);
  return problems.length === 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = (await writeManifest()) ? 0 : 1;
