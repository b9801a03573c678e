// <iam-login> from the built bundle (dist/login.js), in headless Chromium.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import '../../dist/login.js';
import { byLabel, byRole, byText, rendered, type } from './helpers.js';

afterEach(() => fixtureCleanup());

async function loginForm(template = html`<iam-login></iam-login>`) {
  return rendered(await fixture(template));
}

describe('<iam-login>', () => {
  it('renders the sign-in form in the light DOM with labels and autocomplete', async () => {
    const element = await loginForm();
    expect(element.shadowRoot).to.equal(null);
    expect(byRole(element, 'heading', 'Sign in')).to.not.equal(null);
    const username = byLabel(element, 'Username');
    const password = byLabel(element, 'Password');
    expect(username.getAttribute('autocomplete')).to.equal('username');
    expect(password.getAttribute('autocomplete')).to.equal('current-password');
    expect(password.type).to.equal('password');
    expect(username.form === password.form, 'both inputs are in one form').to.equal(true);
    expect(byRole(element, 'button', 'Sign in').type).to.equal('submit');
  });

  it('adopts one constructed stylesheet on the document, never a <style> element', async () => {
    await loginForm();
    await loginForm();
    const sheets = document.adoptedStyleSheets.filter((sheet) => [...sheet.cssRules].some((rule) => rule.cssText.includes('--iam-color-primary')));
    expect(sheets).to.have.length(1);
    expect(document.querySelectorAll('style')).to.have.length(0);
  });

  it('shows both §5 login messages in English, then in Chinese after locale="zh"', async () => {
    const element = await loginForm();
    byRole(element, 'button', 'Sign in').click();
    await waitUntil(() => byText(element, 'Please enter the correct user name'), 'no username message');
    expect(byText(element, 'The password can not be less than 6 digits')).to.not.equal(null);
    expect(byLabel(element, 'Username').getAttribute('aria-invalid')).to.equal('true');

    element.setAttribute('locale', 'zh');
    await waitUntil(() => byText(element, '请输入正确的用户名'), 'no Chinese username message');
    expect(byText(element, '密码不能少于6位')).to.not.equal(null);
    expect(byLabel(element, '用户名')).to.not.equal(null);
    expect(byRole(element, 'button', '登录')).to.not.equal(null);
  });

  it('clears a message once the field is corrected', async () => {
    const element = await loginForm(html`<iam-login locale="en"></iam-login>`);
    type(byLabel(element, 'Password'), '12345');
    byRole(element, 'button', 'Sign in').click();
    await waitUntil(() => byText(element, 'The password can not be less than 6 digits'), 'no password message');
    type(byLabel(element, 'Password'), '123456');
    await waitUntil(() => !byText(element, 'The password can not be less than 6 digits'), 'the password message stayed');
    expect(byText(element, 'Please enter the correct user name')).to.not.equal(null);
  });

  it('shows and hides the password', async () => {
    const element = await loginForm();
    const password = byLabel(element, 'Password');
    byRole(element, 'button', 'Show password').click();
    await waitUntil(() => password.type === 'text', 'the password stayed hidden');
    byRole(element, 'button', 'Hide password').click();
    await waitUntil(() => password.type === 'password', 'the password stayed shown');
  });

  it('switches between the dark and the light theme, and lets the host override a colour', async () => {
    const element = await loginForm();
    const card = byRole(element, 'heading', 'Sign in').parentElement;
    expect(getComputedStyle(card).backgroundColor).to.equal('rgb(19, 37, 28)');
    element.setAttribute('theme', 'light');
    expect(getComputedStyle(card).backgroundColor).to.equal('rgb(255, 255, 255)');
    element.theme = 'dark';
    expect(element.getAttribute('theme')).to.equal('dark');
    expect(getComputedStyle(card).backgroundColor).to.equal('rgb(19, 37, 28)');

    const host = new CSSStyleSheet();
    host.replaceSync('iam-login { --iam-color-surface: rgb(1, 2, 3); }');
    document.adoptedStyleSheets = [host, ...document.adoptedStyleSheets];
    try {
      expect(getComputedStyle(card).backgroundColor).to.equal('rgb(1, 2, 3)');
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== host);
    }
  });

  it('fires iam-login-submit, bubbling and composed, out of a host shadow root', async () => {
    const host = await fixture(html`<div></div>`);
    const shadow = host.attachShadow({ mode: 'open' });
    const element = document.createElement('iam-login');
    shadow.append(element);
    await rendered(element);
    expect(shadow.adoptedStyleSheets).to.have.length(1);

    type(byLabel(element, 'Username'), 'alice');
    type(byLabel(element, 'Password'), 'secret-1');
    const submitted = new Promise((resolve) => {
      // composedPath() is only filled while the event is dispatched.
      document.addEventListener('iam-login-submit', (event) => resolve({ event, target: event.composedPath()[0] }), { once: true });
    });
    byRole(element, 'button', 'Sign in').click();
    const { event, target } = await submitted;
    expect(event.detail).to.deep.equal({ username: 'alice' });
    expect(event.bubbles).to.equal(true);
    expect(event.composed).to.equal(true);
    // (Comparing elements with chai's equal would print a React-laden element on failure.)
    expect(target === element, 'the event comes from <iam-login>').to.equal(true);
  });

  it('shows a failed sign-in with role="alert" and fires iam-error', async () => {
    // The test server has no API: the call gets a real 404.
    const element = await loginForm(html`<iam-login api-base="/no-api-here"></iam-login>`);
    type(byLabel(element, 'Username'), 'alice');
    type(byLabel(element, 'Password'), 'secret-1');
    const failed = new Promise((resolve) => element.addEventListener('iam-error', resolve, { once: true }));
    byRole(element, 'button', 'Sign in').click();
    const event = await failed;
    expect(event.detail.message).to.be.a('string').and.not.equal('');
    expect(event.bubbles && event.composed).to.equal(true);
    await waitUntil(() => byRole(element, 'alert'), 'no alert');
    expect(byRole(element, 'alert').textContent).to.equal(event.detail.message);
    expect(byRole(element, 'button', 'Sign in').disabled).to.equal(false);
  });

  it('can be defined twice (a second copy of the bundle, and the elements entry)', async () => {
    const first = customElements.get('iam-login');
    await import('../../dist/login.js?copy=2');
    await import('../../dist/elements.js');
    expect(customElements.get('iam-login') === first, 'the first definition stays').to.equal(true);
  });
});
