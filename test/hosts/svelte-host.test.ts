// A fresh SvelteKit 2 app (Svelte 5, server rendering on as by default) on the packed `iam-console`:
// packages/iam-console/README.md's SvelteKit typing (its `app.d.ts`) as written types the elements' attributes and
// events for svelte-check, in a runes component (`oniam-login-success`) and in a legacy-mode one
// (`on:iam-navigate`, which the README's typing once left out: svelte-check refused it). Built with
// Vite and served by `vite preview` (the server render, `/api` forwarded by README's dev proxy) under
// the strict policy SvelteKit writes from `kit.csp` (its scripts by nonce, README's allowance for
// its route announcer); after hydration the host's own click handler still runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docBlock } from '../doc-blocks';
import { ADMIN, freePort, launchBrowser, openPage, startServer } from '../e2e/harness';
import { browserPackage, createProject, failureOf, pack, preview, root, runTool, signInThroughLogin, tempFolder, versions } from './harness';

const previewPort = await freePort();
const api = await startServer({ IAM_CORS_ORIGINS: `http://127.0.0.1:${previewPort}` });
const { tarball } = pack(browserPackage, tempFolder('iam-svelte-packed-'));
const readme = 'packages/iam-console/README.md';
/** README's allowance for SvelteKit's route announcer, as a `kit.csp` directive. */
const announcerAllowance = /'style-src-attr': \[[^\]]+\]/.exec(readFileSync(join(root, readme), 'utf8'))?.[0];
if (!announcerAllowance) throw new Error(`${readme} names no style-src-attr allowance for SvelteKit`);

const project = createProject('iam-svelte-host-', {
  'package.json': JSON.stringify(
    {
      name: 'svelte-host',
      private: true,
      type: 'module',
      dependencies: { 'iam-console': `file:${tarball}` },
      devDependencies: {
        '@sveltejs/kit': '2.70.4',
        '@sveltejs/vite-plugin-svelte': '7.3.1',
        svelte: '5.57.3',
        'svelte-check': '4.7.8',
        ...versions('vite', 'typescript'),
      },
    },
    null,
    2,
  ),
  'svelte.config.js': `/** @type {import('@sveltejs/kit').Config} */
export default {
  compilerOptions: { runes: ({ filename }) => (filename.split(/[/\\\\]/).includes('node_modules') ? undefined : true) },
  kit: { csp: { mode: 'auto', directives: { 'default-src': ['self'], 'script-src': ['self'], 'style-src': ['self'], ${announcerAllowance} } } },
};
`,
  'vite.config.ts': `import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';
export default defineConfig({ plugins: [sveltekit()], server: { proxy: { '/api': ${JSON.stringify(api.url)} } } });
`,
  'tsconfig.json': JSON.stringify({
    extends: './.svelte-kit/tsconfig.json',
    compilerOptions: { strict: true, moduleResolution: 'bundler', skipLibCheck: true },
  }),
  'src/app.html': `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>SvelteKit host</title>%sveltekit.head%</head>
  <body><div>%sveltekit.body%</div></body>
</html>
`,
  'src/app.d.ts': docBlock(readme, 'ts', "declare module 'svelte/elements'"),
  'src/routes/+page.svelte': `<script lang="ts">
  import 'iam-console/elements';
  import LegacyConsole from '$lib/LegacyConsole.svelte';
  let clicks = $state(0);
  let user = $state('');
  let hydrated = $state(false);
  $effect(() => {
    hydrated = true;
  });
</script>

<p>Rendered {hydrated ? 'and hydrated in the browser' : 'on the server'}</p>
<button type="button" onclick={() => clicks++}>Host button</button>
<p role="status">Host clicks: {clicks}</p>
<p>Signed in: {user}</p>
<iam-login api-base="/api" locale="en" oniam-login-success={(event) => (user = event.detail.username)}></iam-login>
<LegacyConsole />
`,
  'src/lib/LegacyConsole.svelte': `<svelte:options runes={false} />
<script lang="ts">
  import 'iam-console/elements';
  let path = '';
</script>

<p>Console at: {path}</p>
<iam-console api-base="/api" routing="memory" on:iam-navigate={(event) => (path = event.detail.path)}></iam-console>
`,
});

runTool(project, 'svelte-kit', ['sync']);
const typecheck = failureOf(project, 'svelte-check', ['--tsconfig', './tsconfig.json', '--fail-on-warnings']);
runTool(project, 'vite', ['build', '--logLevel', 'warn']);
const hostUrl = await preview(project, previewPort);
const browser = await launchBrowser();

test("README's app.d.ts types the elements' attributes and events for svelte-check, in runes and legacy components", () => {
  assert.equal(typecheck, '');
});

test('the server-rendered SvelteKit page signs in under its strict policy; both event syntaxes and the host handler work', async () => {
  const rendered = await (await fetch(hostUrl)).text();
  assert.match(rendered, /<iam-login api-base="\/api" locale="en"><\/iam-login>/, 'the server render has the tag');
  const { page, errors } = await openPage(browser, { expectedFailures: [/\/favicon\.ico$/] });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.sourceFile}`));
  });
  const answer = await page.goto(hostUrl);
  assert.match(answer?.headers()['content-security-policy'] ?? '', /default-src 'self'; script-src 'self' 'nonce-[^']+'; style-src 'self'/);
  assert.match(rendered, /Rendered on the server/);
  // A click before hydration lands on the server's button, which has no handler yet.
  await page.getByText('Rendered and hydrated in the browser').waitFor();
  await page.getByRole('button', { name: 'Host button' }).click();
  await page.getByRole('status').filter({ hasText: 'Host clicks: 1' }).waitFor({ timeout: 5000 });
  await signInThroughLogin(page);
  await page.getByText(`Signed in: ${ADMIN.username}`).waitFor();
  await page.getByText('Console at: /home/index').waitFor();
  await page.getByRole('button', { name: 'Host button' }).click();
  await page.getByRole('status').filter({ hasText: 'Host clicks: 2' }).waitFor({ timeout: 5000 });
  assert.deepEqual(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), []);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test.after(async () => {
  await browser.close();
  await api.stop();
});
