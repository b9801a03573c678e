// custom-elements.json (Custom Elements Manifest, the `customElements` field of package.json):
// generated from the element classes' JSDoc (@tag, @attr, @fires, @csspart, @cssprop) by
// @custom-elements-manifest/analyzer, then checked to list every element with its attributes
// and events. `npm run build` calls it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(new URL('../node_modules/@custom-elements-manifest/analyzer/cem.js', import.meta.url));

/** Every published element with the attributes and events the manifest must carry. */
const expected = {
  'iam-console': { attributes: ['api-base', 'locale', 'theme', 'ui-embed', 'routing', 'base', 'route'], events: ['iam-navigate', 'iam-logout', 'iam-error'] },
  'iam-login': { attributes: ['api-base', 'locale', 'theme', 'auth-mode', 'redirect'], events: ['iam-login-submit', 'iam-login-success', 'iam-error'] },
  'iam-profile-dialog': { attributes: ['open'], events: ['iam-profile-saved', 'iam-close'] },
  'iam-password-dialog': { attributes: ['open', 'mode', 'user-id', 'username'], events: ['iam-password-changed', 'iam-close'] },
  'iam-provider': { attributes: ['api-base', 'locale', 'theme'], events: [] },
};

/** The problems of a manifest against `expected` (none when complete). */
function problemsOf(manifest) {
  const declarations = manifest.modules.flatMap((module) => module.declarations ?? []).filter((declaration) => declaration.tagName);
  const problems = [];
  for (const [tag, { attributes, events }] of Object.entries(expected)) {
    const element = declarations.find((declaration) => declaration.tagName === tag);
    if (!element) {
      problems.push(`${tag} is missing`);
      continue;
    }
    const has = (list, name) => (list ?? []).some((entry) => entry.name === name);
    for (const name of attributes) if (!has(element.attributes, name)) problems.push(`${tag} lacks attribute ${name}`);
    for (const name of events) if (!has(element.events, name)) problems.push(`${tag} lacks event ${name}`);
  }
  return problems;
}

/** Writes custom-elements.json at the package root; answers whether it is complete. */
export function writeManifest() {
  const run = spawnSync(process.execPath, [cli, 'analyze', '--config', 'scripts/custom-elements-manifest.config.mjs'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) {
    console.error(`custom-elements-manifest analyzer failed:\n${run.stderr || run.stdout}`);
    return false;
  }
  const problems = problemsOf(JSON.parse(readFileSync(`${root}/custom-elements.json`, 'utf8')));
  if (problems.length) console.error(`custom-elements.json is incomplete:\n  - ${problems.join('\n  - ')}`);
  else console.log(`custom-elements.json: ${Object.keys(expected).join(', ')}`);
  return problems.length === 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = writeManifest() ? 0 : 1;
