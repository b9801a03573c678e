// A fresh Vite + Vue 3 project on the packed `iam-console`: README's Vue snippet as written
// (`isCustomElement` in vite.config.ts, `<iam-login … @iam-login-success>` in a single-file
// component), built with Vite and run behind README's dev proxy under a strict CSP; the host's
// TypeScript (typed events on the elements) compiles with `skipLibCheck: false`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, freePort, launchBrowser, openPage, startServer } from '../e2e/harness';
import { browserPackage, createProject, failureOf, hostTsconfig, pack, preview, runTool, tempFolder, versions, viteServerOptions } from './harness';

const previewPort = await freePort();
const api = await startServer({ IAM_CORS_ORIGINS: `http://127.0.0.1:${previewPort}` });
const { tarball } = pack(browserPackage, tempFolder('iam-vue-packed-'));

const project = createProject('iam-vue-host-', {
  'package.json': JSON.stringify(
    {
      name: 'vue-host',
      private: true,
      type: 'module',
      dependencies: { 'iam-console': `file:${tarball}`, ...versions('vue') },
      devDependencies: versions('vite', '@vitejs/plugin-vue', 'typescript'),
    },
    null,
    2,
  ),
  'tsconfig.json': hostTsconfig(),
  'vite.config.ts': `import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
export default defineConfig({
  // treat iam-* tags as custom elements
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('iam-') } } })],
  ${viteServerOptions(api.url)}
});
`,
  'index.html':
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Vue host</title></head>\n<body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>\n',
  'src/App.vue': `<script setup lang="ts">
import 'iam-console/elements';
const onSuccess = (e: CustomEvent<{ username: string }>) => console.log(e.detail.username);
</script>
<template>
  <iam-login api-base="/api" locale="zh" @iam-login-success="onSuccess" />
</template>
`,
  'src/shims.d.ts': `declare module '*.vue' {\n  import type { DefineComponent } from 'vue';\n  const component: DefineComponent;\n  export default component;\n}\n`,
  'src/main.ts': `import { createApp } from 'vue';
import 'iam-console/elements';
import App from './App.vue';

createApp(App).mount('#app');
// The typed events a Vue host's own code gets from the package's typings.
document.querySelector('iam-login')?.addEventListener('iam-login-success', (event) => {
  const username: string = event.detail.username;
  document.title = \`Signed in: \${username}\`;
});
`,
});

const typecheck = failureOf(project, 'tsc', ['--noEmit', '-p', 'tsconfig.json']);
runTool(project, 'vite', ['build', '--logLevel', 'warn']);
const hostUrl = await preview(project, previewPort);
const browser = await launchBrowser();

test("the Vue host's TypeScript compiles against the packed typings with skipLibCheck: false", () => {
  assert.equal(typecheck, '');
});

test("README's Vue snippet signs in, its handler gets the typed detail, under a strict CSP", async () => {
  const { page, errors } = await openPage(browser, { expectedFailures: [/\/favicon\.ico$/] });
  const logged: string[] = [];
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'log') logged.push(message.text());
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(hostUrl);
  const form = page.locator('iam-login');
  await form.locator('input[autocomplete~="username"]').fill(ADMIN.username);
  await form.locator('input[autocomplete="current-password"]').fill(ADMIN.password);
  await form.locator('button[type="submit"]').click();
  await page.waitForFunction((username) => document.title === `Signed in: ${username}`, ADMIN.username);
  assert.ok(logged.includes(ADMIN.username), `logged: ${logged.join(', ')}`);
  assert.deepEqual(errors, []);
  assert.deepEqual(violations, []);
  await page.context().close();
});

test.after(async () => {
  await browser.close();
  await api.stop();
});
