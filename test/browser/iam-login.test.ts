// <iam-login> from the built bundle (dist/login.js), in headless Chromium.
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../dist/login.js';
import { until } from './console/helpers.js';
import { adminCredentials, byLabel, byRole, byText, rendered, type, type Dispatched, type IamElement } from './helpers.js';

afterEach(() => fixtureCleanup());

async function loginForm(template = html`<iam-login></iam-login>`) {
  return rendered(await fixture<IamElement>(template));
}

describe('<iam-login>', () => {
  it('renders the sign-in form in the light DOM with labels and autocomplete', async () => {
    const element = await loginForm();
    expect(element.shadowRoot).to.equal(null);
    expect(byRole(element, 'heading', 'Sign in')).to.not.equal(null);
    const username = byLabel(element, 'Username');
    const password = byLabel(element, 'Password');
    expect(username.getAttribute('autocomplete')).to.equal('username webauthn');
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

  it('shows both login messages in English, then in Chinese after locale="zh"', async () => {
    const element = await loginForm();
    byRole(element, 'button', 'Sign in').click();
    await until(() => byText(element, 'Please enter the correct user name'), 'no username message');
    expect(byText(element, 'The password can not be less than 6 digits')).to.not.equal(null);
    expect(byLabel(element, 'Username').getAttribute('aria-invalid')).to.equal('true');

    element.setAttribute('locale', 'zh');
    await until(() => byText(element, '请输入正确的用户名'), 'no Chinese username message');
    expect(byText(element, '密码不能少于6位')).to.not.equal(null);
    expect(byLabel(element, '用户名')).to.not.equal(null);
    expect(byRole(element, 'button', '登录')).to.not.equal(null);

    // Back to English, live.
    element.setAttribute('locale', 'en');
    await until(() => byLabel(element, 'Username'), 'the locale did not switch back');
  });

  it('clears a message once the field is corrected', async () => {
    const element = await loginForm(html`<iam-login locale="en"></iam-login>`);
    type(byLabel(element, 'Password'), '12345');
    byRole(element, 'button', 'Sign in').click();
    await until(() => byText(element, 'The password can not be less than 6 digits'), 'no password message');
    type(byLabel(element, 'Password'), '123456');
    await until(() => !byText(element, 'The password can not be less than 6 digits'), 'the password message stayed');
    expect(byText(element, 'Please enter the correct user name')).to.not.equal(null);
  });

  it('shows and hides the password', async () => {
    const element = await loginForm();
    const password = byLabel(element, 'Password');
    byRole(element, 'button', 'Show password').click();
    await until(() => password.type === 'text', 'the password stayed hidden');
    byRole(element, 'button', 'Hide password').click();
    await until(() => password.type === 'password', 'the password stayed shown');
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
    const submitted = new Promise<Dispatched>((resolve) => {
      // composedPath() is only filled while the event is dispatched.
      document.addEventListener('iam-login-submit', (event) => resolve({ event: event as CustomEvent, target: event.composedPath()[0] }), { once: true });
    });
    byRole(element, 'button', 'Sign in').click();
    const { event, target } = await submitted;
    expect(event.detail).to.deep.equal({ username: 'alice' });
    expect(event.bubbles).to.equal(true);
    expect(event.composed).to.equal(true);
    // (Comparing elements with chai's equal would print a React-laden element on failure.)
    expect(target === element, 'the event comes from <iam-login>').to.equal(true);
  });

  it('signs in against the server and fires iam-login-success', async () => {
    const admin = await adminCredentials();
    const element = await loginForm();
    type(byLabel(element, 'Username'), admin.username);
    type(byLabel(element, 'Password'), admin.password);
    const succeeded = new Promise<CustomEvent>((resolve) =>
      document.addEventListener('iam-login-success', (event) => resolve(event as CustomEvent), { once: true }),
    );
    byRole(element, 'button', 'Sign in').click();
    const event = await succeeded;
    expect(event.detail).to.deep.equal({ username: admin.username, redirectURL: '/' });
    expect(event.bubbles && event.composed && event.cancelable).to.equal(true);
    expect(byRole(element, 'alert')).to.equal(null);
  });

  it('shows a refused sign-in with role="alert" and fires iam-error', async () => {
    const element = await loginForm();
    type(byLabel(element, 'Username'), `nobody-${Date.now()}`);
    type(byLabel(element, 'Password'), 'wrong-password-1');
    const failed = new Promise<CustomEvent>((resolve) => element.addEventListener('iam-error', (event) => resolve(event as CustomEvent), { once: true }));
    byRole(element, 'button', 'Sign in').click();
    const event = await failed;
    expect(event.detail).to.deep.equal({ message: 'Invalid username or password' });
    expect(event.bubbles && event.composed).to.equal(true);
    await until(() => byRole(element, 'alert'), 'no alert');
    expect(byRole(element, 'alert').textContent).to.equal('Invalid username or password');
    expect(byRole(element, 'button', 'Sign in').disabled).to.equal(false);
  });

  it('asks for the captcha once the server wants one, and requires it', async () => {
    const element = await loginForm();
    const username = `nobody-${Date.now()}`;
    // The server's default policy asks for a captcha after 3 failures of one username.
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      type(byLabel(element, 'Username'), username);
      type(byLabel(element, 'Password'), 'wrong-password-1');
      const failed = new Promise((resolve) => element.addEventListener('iam-error', resolve, { once: true }));
      byRole(element, 'button', 'Sign in').click();
      await failed;
      await until(() => byRole(element, 'button', 'Sign in'), 'the form stayed busy');
    }
    await until(() => byLabel(element, 'Captcha'), 'no captcha field');
    const image = element.querySelector<HTMLImageElement>('img[alt="Captcha image"]');
    await until(() => image.complete && image.naturalWidth > 0, 'the captcha image did not load');
    expect(new URL(image.src).pathname).to.equal('/api/captcha/image/display');
    byRole(element, 'button', 'Sign in').click();
    await until(() => byText(element, 'Please enter the characters shown in the image'), 'no captcha message');
  });

  it('opens "Forgot password?" as a lazily loaded form, checks the identifier, and goes back', async () => {
    const element = await loginForm();
    byRole(element, 'button', 'Forgot password?').click();
    await until(() => byRole(element, 'heading', 'Reset your password'), 'the reset form did not load');
    expect(byLabel(element, 'Username')).to.equal(null, 'in place of the sign-in form');
    type(byLabel(element, 'Email or mobile phone'), 'not-an-address');
    byRole(element, 'button', 'Send code').click();
    await until(() => byText(element, 'Enter your email address or mobile phone number'), 'no identifier message');
    type(byLabel(element, 'Email or mobile phone'), `nobody-${Date.now()}@example.com`);
    byRole(element, 'button', 'Send code').click();
    // Unknown addresses get the same answer: the form goes on to the code.
    await until(() => byLabel(element, 'New password'), 'no code step');
    expect(byRole(element, 'button', 'Send code')).to.equal(null, 'the cool-down replaced it');
    byRole(element, 'button', 'Back to sign in').click();
    await until(() => byLabel(element, 'Username'), 'not back at the sign-in form');
  });

  it('can be defined twice (a second copy of the bundle, and the elements entry)', async () => {
    const first = customElements.get('iam-login');
    await import('../../dist/login.js?copy=2');
    await import('../../dist/elements.js');
    expect(customElements.get('iam-login') === first, 'the first definition stays').to.equal(true);
  });
});
