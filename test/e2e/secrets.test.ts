// Secrets never in the page. Channels are configured with secrets (SMTP password, SMS access
// secret, DingTalk webhook token and signing secret) and an identity provider with a client
// secret. The administrator opens the channel screen, each channel's edit dialog and the login
// settings; a visitor opens the sign-in page with the provider's button. The serialised DOM —
// document.documentElement.outerHTML plus every shadow root's innerHTML, plus every form field's
// current value — holds none of the secrets, nor the session cookie (HttpOnly: the page cannot
// read it either) or the typed password.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, startServerAndBrowser } from './harness';
import { signIn } from './admin-support';

const SECRETS = {
  smtpPassword: 'smtp-e2e-secret-4711',
  smsSecret: 'sms-e2e-secret-0815',
  robotToken: 'robot-e2e-token-1234',
  dingSecret: 'SEC-e2e-ding-5678',
  idpSecret: 'idp-e2e-secret-9012',
};
const CHANNELS = ['Mail relay', 'SMS vendor', 'Ops group'];

const { server, browser } = await startServerAndBrowser();

before(async () => {
  const api = new ApiClient(server.url);
  await api.signIn(ADMIN.username, ADMIN.password);
  await api.call('POST', '/channels', {
    name: CHANNELS[0],
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: '2525', username: 'relay', password: SECRETS.smtpPassword },
  });
  await api.call('POST', '/channels', {
    name: CHANNELS[1],
    serviceType: 'SMS',
    vendor: 'acme',
    config: { url: 'http://127.0.0.1:9/sms', templateId: 'TPL_1', accessKeyId: 'key-1', accessSecret: SECRETS.smsSecret },
  });
  await api.call('POST', '/channels', {
    name: CHANNELS[2],
    serviceType: 'DING_TALK',
    vendor: 'dingtalk',
    config: { webhook: `http://127.0.0.1:9/dingtalk/send?access_token=${SECRETS.robotToken}`, secret: SECRETS.dingSecret },
  });
  await api.call('POST', '/idps', {
    code: 'corp',
    name: 'Corp SSO',
    type: 'OIDC',
    config: { issuer: 'https://sso.example.com', clientId: 'iam', clientSecret: SECRETS.idpSecret },
  });
  const config = await api.call<{ value: { system: Record<string, unknown> }; version: number }>('GET', '/config');
  await api.call('PUT', '/config', { system: { ...config.value.system, supportThirdLogin: 'Y' }, version: config.version });
});

/** The whole DOM as markup (shadow roots included) and every form field's value. */
const SERIALISED = `(() => {
  const parts = [document.documentElement.outerHTML];
  const walk = (root) => root.querySelectorAll('*').forEach((element) => {
    if ('value' in element && typeof element.value === 'string') parts.push(element.value);
    if (element.shadowRoot) { parts.push(element.shadowRoot.innerHTML); walk(element.shadowRoot); }
  });
  walk(document);
  return parts.join('\\n');
})()`;

async function assertNoSecret(page: Page, where: string, also: Record<string, string> = {}): Promise<number> {
  const dom = await page.evaluate<string>(SERIALISED);
  const found = Object.entries({ ...SECRETS, ...also })
    .filter(([, value]) => dom.includes(value))
    .map(([name]) => name);
  assert.deepEqual(found, [], `${where}: a secret is in the DOM`);
  return dom.length;
}

test('the channel screen, each channel’s edit dialog and the login settings hold no secret in the DOM', async () => {
  const { page, context, errors } = await openPage(browser);
  await signIn(page, server.url, ADMIN.username, ADMIN.password);
  const cookie = (await context.cookies()).find((item) => item.name === 'iam_session');
  assert.ok(cookie?.httpOnly, 'the session cookie is HttpOnly');
  assert.equal(await page.evaluate('document.cookie.includes("iam_session")'), false, 'the page cannot read the session cookie');
  const also = { sessionCookie: cookie.value, adminPassword: ADMIN.password };

  let checkedBytes = 0;
  await page.goto(`${server.url}/operate/tunnel`);
  await page.getByRole('heading', { name: 'Channels' }).waitFor();
  for (const name of CHANNELS) await page.getByRole('row').filter({ hasText: name }).waitFor();
  checkedBytes += await assertNoSecret(page, 'channel list', also);
  for (const name of CHANNELS) {
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit channel' });
    await dialog.getByText('Stored. Leave empty to keep it').first().waitFor();
    checkedBytes += await assertNoSecret(page, `edit dialog of ${name}`, also);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
  await page.goto(`${server.url}/operate/setting`);
  await page.getByRole('heading', { name: 'Login settings' }).waitFor();
  checkedBytes += await assertNoSecret(page, 'login settings', also);

  // The identity provider is shown on the sign-in page (its only screen): its button, not its secret.
  const visitor = await openPage(browser, { expectedFailures: [/\/api\/cas\/session$/] });
  await visitor.page.goto(`${server.url}/login`);
  await visitor.page.getByText('Corp SSO').first().waitFor();
  checkedBytes += await assertNoSecret(visitor.page, 'sign-in page', also);
  console.log(`secrets e2e: ${checkedBytes} characters of DOM and field values checked against ${Object.keys(SECRETS).length + 2} secrets`);
  assert.deepEqual(errors, []);
});
