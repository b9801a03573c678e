// Hosts that render the whole document on the server and hydrate it in the browser
// (`hydrateRoot(document, …)`): a React Router 7 app in framework mode and a Next.js App Router
// app, each importing `iam-console/elements` as packages/iam-console/README.md says for server
// renders, on the packed package. Both install at once; Next.js runs as `next dev` (its production
// build takes minutes here; the client hydrates the document the same way). The elements render before the host hydrates; the host must keep
// its own event handlers (React once left its listening mark on the document when an element made
// its root, and the host's hydration then attached no listener: every onClick of the host was dead,
// with nothing logged). One sign-in through <iam-login> and one click of the host's button each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, launchBrowser, openPage, startServer } from '../e2e/harness';
import { browserPackage, createProjectAsync, pack, runTool, serve, signInThroughLogin, tempFolder, versions } from './harness';

const reactRouterPort = await freePort();
const nextPort = await freePort();
const api = await startServer({ IAM_CORS_ORIGINS: [reactRouterPort, nextPort].map((port) => `http://127.0.0.1:${port}`).join(',') });
const { tarball } = pack(browserPackage, tempFolder('iam-document-packed-'));

/** The host's page: its own button and state, and the elements as README shows them. */
const hostPage = `import { useState } from 'react';
import 'iam-console/elements';

export function HostPage() {
  const [clicks, setClicks] = useState(0);
  return (
    <main>
      <button type="button" onClick={() => setClicks(clicks + 1)}>Host button</button>
      <p role="status">Host clicks: {clicks}</p>
      <iam-login api-base="/api" locale="en" />
      <iam-console api-base="/api" routing="memory" />
    </main>
  );
}
`;

// React Router 7, framework mode with server rendering, served by react-router-serve; its /api
// resource route forwards to the server as a host's proxy would.
const reactRouterVersion = '7.18.4';
const reactRouterProject = createProjectAsync('iam-react-router-host-', {
  'package.json': JSON.stringify(
    {
      name: 'react-router-host',
      private: true,
      type: 'module',
      dependencies: {
        'iam-console': `file:${tarball}`,
        ...versions('react', 'react-dom'),
        'react-router': reactRouterVersion,
        '@react-router/node': reactRouterVersion,
        '@react-router/serve': reactRouterVersion,
        isbot: '^5.1.0',
      },
      devDependencies: { '@react-router/dev': reactRouterVersion, ...versions('vite') },
    },
    null,
    2,
  ),
  'react-router.config.ts': `import type { Config } from '@react-router/dev/config';\nexport default { ssr: true } satisfies Config;\n`,
  'vite.config.ts': `import { reactRouter } from '@react-router/dev/vite';\nimport { defineConfig } from 'vite';\nexport default defineConfig({ plugins: [reactRouter()] });\n`,
  'app/root.tsx': `import type { ReactNode } from 'react';
import { Links, Meta, Outlet, Scripts } from 'react-router';
export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head><meta charSet="utf-8" /><title>React Router host</title><Meta /><Links /></head>
      <body>{children}<Scripts /></body>
    </html>
  );
}
export default function App() {
  return <Outlet />;
}
`,
  'app/routes.ts': `import { type RouteConfig, index, route } from '@react-router/dev/routes';
export default [index('routes/home.tsx'), route('api/*', 'routes/api.ts')] satisfies RouteConfig;
`,
  'app/host-page.tsx': hostPage,
  'app/routes/home.tsx': `import { HostPage } from '../host-page';\nexport default HostPage;\n`,
  'app/routes/api.ts': `async function forward({ request }: { request: Request }): Promise<Response> {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.delete('host');
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  const answer = await fetch(new URL(url.pathname + url.search, process.env.IAM_API), { method: request.method, headers, body, redirect: 'manual' });
  const answerHeaders = new Headers(answer.headers);
  answerHeaders.delete('content-encoding');
  answerHeaders.delete('content-length');
  return new Response(answer.body, { status: answer.status, headers: answerHeaders });
}
export const loader = forward;
export const action = forward;
`,
});

// Next.js App Router: the page (a server component) renders the host's client component; /api is
// forwarded with rewrites() as README says. JavaScript files, so that Next.js installs nothing more.
const nextProject = createProjectAsync('iam-next-host-', {
  'package.json': JSON.stringify(
    { name: 'next-host', private: true, dependencies: { 'iam-console': `file:${tarball}`, ...versions('react', 'react-dom'), next: '16.4.6' } },
    null,
    2,
  ),
  'next.config.mjs': `export default { async rewrites() { return [{ source: '/api/:path*', destination: \`\${process.env.IAM_API}/api/:path*\` }]; } };\n`,
  'app/layout.jsx': `export const metadata = { title: 'Next.js host' };
export default function RootLayout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`,
  'app/host-page.jsx': `'use client';\n${hostPage}`,
  'app/page.jsx': `import { HostPage } from './host-page';\nexport default function Page() {\n  return <HostPage />;\n}\n`,
});

const [reactRouter, next] = await Promise.all([reactRouterProject, nextProject]);
runTool(reactRouter, 'react-router', ['build']);
const reactRouterUrl = await serve(reactRouter, ['node_modules/@react-router/serve/bin.js', 'build/server/index.js'], reactRouterPort, {
  env: { PORT: String(reactRouterPort), HOST: '127.0.0.1', IAM_API: api.url, NODE_ENV: 'production' },
});
// The first request compiles the page.
const nextUrl = await serve(next, ['node_modules/next/dist/bin/next', 'dev', '--port', String(nextPort), '--hostname', '127.0.0.1'], nextPort, {
  env: { IAM_API: api.url, NEXT_TELEMETRY_DISABLED: '1' },
  within: 180_000,
});
const browser = await launchBrowser();

/** Signs in through <iam-login>, then clicks the host's own button: its handler runs. */
async function signInAndClick(url: string): Promise<void> {
  const { page, errors } = await openPage(browser, { expectedFailures: [/\/favicon\.ico$/] });
  await page.goto(url);
  await signInThroughLogin(page);
  await page.getByRole('button', { name: 'Host button' }).click();
  await page.getByRole('status').filter({ hasText: 'Host clicks: 1' }).waitFor({ timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.context().close();
}

test('a React Router 7 app in framework mode (server-rendered, hydrating the document) keeps its own click handlers beside the elements', async () => {
  await signInAndClick(reactRouterUrl);
});

test('a Next.js App Router app keeps its own click handlers beside the elements', async () => {
  await signInAndClick(nextUrl);
});

test.after(async () => {
  await browser.close();
  await api.stop();
});
