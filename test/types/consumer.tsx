// A host page's code written against the published typings (packages/iam-console/dist/types), as a
// person who installed iam-console would write it. test/e2e/typings.test.ts compiles it after the
// build; every line below must typecheck, and each `@ts-expect-error` must stay an error.
import 'iam-console/elements';
import type { IamConsoleElement } from 'iam-console/elements';
import { transformPassword } from 'iam-console/core';

const login = document.createElement('iam-login');
login.setAttribute('api-base', '/api');
login.addEventListener('iam-login-success', (event) => {
  const username: string = event.detail.username;
  const next: string | undefined = event.detail.redirectURL;
  console.log(username, next);
});

const consoleElement: IamConsoleElement = document.createElement('iam-console');
consoleElement.addEventListener('iam-navigate', (event) => console.log(event.detail.path));

// @ts-expect-error the success detail has no password
login.addEventListener('iam-login-success', (event) => event.detail.password);

export function HostPage() {
  return (
    <iam-provider api-base="/api" locale="zh" theme="light">
      <iam-console ui-embed routing="memory" route="/operate/user" />
      <iam-login redirect="/home" />
      {/* @ts-expect-error themes are dark or light */}
      <iam-login theme="blue" />
    </iam-provider>
  );
}

export const hashed: Promise<string> = transformPassword('secret');
