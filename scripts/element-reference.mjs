// docs/elements.md: the element reference, generated from custom-elements.json (the Custom
// Elements Manifest that `npm run build` writes from the attribute table and the element classes). Run `node scripts/element-reference.mjs` after a
// build; a unit test fails while the committed page differs from what the manifest gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n+/g, ' ');

function table(title, headers, rows) {
  if (!rows.length) return [];
  return [
    `**${title}**`,
    '',
    `| ${headers.join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ];
}

/**
 * Frameworks the packed package was tried in as an outsider would (a fresh project of the framework's
 * own template, its defaults, the package's README), each with what was checked; the host suite
 * (test/hosts) repeats what it names on every run.
 */
const triedWith = [
  "SvelteKit 2.70 (Svelte 5.57, `sv create` minimal template, server rendering on, `vite preview` with adapter-node built): svelte-check with the README's `src/app.d.ts` (attributes and `oniam-*` / `on:iam-*` events typed), sign-in, host handlers after hydration, the profile dialog (focus inside, Escape, focus back), `kit.csp` strict with no violation (test/hosts/svelte-host.test.ts).",
  "Angular 22.2 (`ng new --ssr` defaults: standalone, zoneless, prerendering with hydration, strict templates; the Express server it writes, `/api` forwarded there): `CUSTOM_ELEMENTS_SCHEMA`, `[locale]`, `[open]`, `[attr.theme]`, `(iam-login-success)`, `(iam-navigate)` and `(iam-close)` with a typed `$event`, `ng build` (its prerender imports the elements under Angular's server DOM: test/hosts/package.test.ts), sign-in, host handlers after hydration, the profile dialog (focus inside, Escape, focus back), `style-src 'self'` with no violation.",
  "Astro 7.3 (static output, its default; `security: { csp: true }`, whose policy hashes its scripts): the elements in the page's markup, `import 'iam-console/elements'` and the listeners in a plain `<script>`, `astro check` (the events' `detail` typed), sign-in, the profile dialog (focus inside, Escape, focus back), no violation.",
  "Preact 10.29 (Vite 8, @preact/preset-vite 2.10 with `reactAliasesEnabled: false` as the README says; with its default alias to preact/compat the sign-in form's two fields got one id): the README's JSX typing under strict tsc, `oniam-*` events, sign-in, the profile dialog (focus inside, Escape, focus back), `vite preview` under `default-src 'self'; script-src 'self'; style-src 'self'` with no violation.",
];

/** The Markdown reference of every element the manifest declares. */
export function elementReference(manifest) {
  const elements = manifest.modules
    .flatMap((module) => (module.declarations ?? []).map((declaration) => ({ ...declaration, path: module.path })))
    .filter((declaration) => declaration.tagName)
    .sort((a, b) => a.tagName.localeCompare(b.tagName));
  const lines = [
    '# Element reference',
    '',
    '<!-- Generated from custom-elements.json by scripts/element-reference.mjs: do not edit by hand. -->',
    '',
    'Every event is a `CustomEvent` that bubbles and is composed (it leaves shadow roots).',
    '',
  ];
  for (const element of elements) {
    lines.push(`## \`<${element.tagName}>\``, '', element.description ?? '', '', `Source: \`${element.path}\``, '');
    lines.push(
      ...table(
        'Attributes',
        ['Attribute', 'Property', 'Type', 'Default', 'Description'],
        (element.attributes ?? []).map((a) => [`\`${a.name}\``, a.fieldName ? `\`${a.fieldName}\`` : '', a.type?.text ?? '', a.default ?? '', a.description]),
      ),
    );
    lines.push(
      ...table(
        'Events',
        ['Event', 'Type', 'Description'],
        (element.events ?? []).map((e) => [`\`${e.name}\``, e.type?.text ?? '', e.description]),
      ),
    );
    lines.push(
      ...table(
        'CSS parts',
        ['Part', 'Description'],
        (element.cssParts ?? []).map((p) => [`\`::part(${p.name})\``, p.description]),
      ),
    );
    if (element.cssProperties?.length) lines.push('**CSS custom properties**: every [theme token](#theme-tokens).', '');
  }
  // The elements share one theme: its tokens are listed once.
  const tokens = elements.find((element) => element.cssProperties?.length)?.cssProperties ?? [];
  if (tokens.length) {
    lines.push('## Theme tokens', '', 'Set on an element (or any ancestor) to override its theme, e.g. `iam-login { --iam-color-primary: #06c }`.', '');
    lines.push(
      ...table(
        `${tokens.length} tokens`,
        ['Property', 'Description'],
        tokens.map((p) => [`\`${p.name}\``, p.description]),
      ),
    );
  }
  lines.push('## Tried with', '', ...triedWith.map((line) => `- ${line}`), '');
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

export const referencePath = fileURLToPath(new URL('docs/elements.md', root));
export const manifestPath = fileURLToPath(new URL('custom-elements.json', root));

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(referencePath, elementReference(JSON.parse(readFileSync(manifestPath, 'utf8'))));
  console.log(`wrote ${referencePath}`);
}
