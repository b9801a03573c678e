// The account dialogs as elements (<iam-profile-dialog>, <iam-password-dialog>) from the built
// bundle, against the real API: titled, focus kept inside, Esc closes; the profile dialog
// (loads the basic info, messages, the avatar upload widget, saves); the password dialog of
// in user mode (the administrator's own password) and in self mode.
import { expect, fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../../dist/elements.js';
import { adminCredentials, type Credentials } from '../helpers.js';
import { api, byLabel, byRole, byText, chooseFile, createUser, pngFile, signIn, type, until } from './helpers.js';

let admin: Credentials;

before(async () => {
  admin = await adminCredentials();
  await setViewport({ width: 1280, height: 800 });
  await signIn(admin.username, admin.password);
});

afterEach(() => fixtureCleanup());

/** The dialog inside an element, once it has loaded its info (the Save/OK button is enabled). */
async function openDialog(element: Element, name: string) {
  const root = element.shadowRoot;
  const dialog = await until(() => byRole(root, 'dialog', name), `no dialog "${name}"`);
  return dialog;
}

describe('<iam-profile-dialog>', () => {
  it('is titled, loads the basic info, keeps focus inside and closes on Esc', async () => {
    const element = await fixture(html`<iam-profile-dialog open></iam-profile-dialog>`);
    const dialog = await openDialog(element, 'Edit personal information');
    const username = byLabel(dialog, 'Username');
    await until(() => username.value === admin.username, 'the basic info did not load');
    expect(username.readOnly).to.equal(true);
    expect(dialog.contains(element.shadowRoot.activeElement), 'focus is inside the dialog').to.equal(true);
    // Tab from the last control comes back into the dialog.
    for (let i = 0; i < 12; i += 1) await sendKeys({ press: 'Tab' });
    expect(dialog.contains(element.shadowRoot.activeElement), 'focus stayed inside').to.equal(true);

    const closed = oneEvent(element, 'iam-close');
    await sendKeys({ press: 'Escape' });
    await closed;
    await until(() => !byRole(element.shadowRoot, 'dialog'), 'the dialog stayed open');
    expect(element.hasAttribute('open')).to.equal(false);
  });

  it('shows the messages under the fields, uploads an avatar and saves', async () => {
    const element = await fixture(html`<iam-profile-dialog open></iam-profile-dialog>`);
    const dialog = await openDialog(element, 'Edit personal information');
    const save = byRole(dialog, 'button', 'Save');
    await until(() => !save.disabled, 'the form did not load');

    type(byLabel(dialog, 'Real name'), 'x');
    type(byLabel(dialog, 'Mobile phone'), '12345');
    type(byLabel(dialog, 'Email'), 'not-an-address');
    save.click();
    await until(() => byText(dialog, 'Use 2-20 letters, digits, underscores, hyphens or Chinese characters'), 'no real name message');
    expect(byText(dialog, 'Please enter a valid mobile phone number')).to.not.equal(null);
    expect(byText(dialog, 'Please enter a valid email address')).to.not.equal(null);
    expect(byLabel(dialog, 'Real name').getAttribute('aria-invalid')).to.equal('true');

    // The upload widget: the core's checks refuse a wrong file before anything is sent.
    const avatar = byLabel(dialog, 'Avatar');
    expect(avatar.type).to.equal('file');
    expect(byText(dialog, 'Only png, jpg, jpeg, gif and svg images are allowed')).to.not.equal(null);
    chooseFile(avatar, new File(['plain text'], 'notes.png', { type: 'image/png' }));
    await until(() => byRole(dialog, 'alert'), 'no upload message');
    expect(byRole(dialog, 'alert').textContent).to.equal('Only png, jpg, jpeg, gif and svg images are allowed');
    expect(byRole(dialog, 'button', 'Upload')).to.not.equal(null);

    chooseFile(avatar, await pngFile('me.png', 64));
    const preview = await until(() => byRole(dialog, 'img', 'Avatar preview'), 'no preview after the upload');
    expect(preview.getAttribute('src')).to.match(/^\/api\/file\/get\/[0-9a-f]+\.png$/);
    await until(() => preview.complete && preview.naturalWidth === 64, 'the uploaded file is not shown');
    expect(preview.getBoundingClientRect().width).to.equal(96);

    type(byLabel(dialog, 'Real name'), 'Administrator');
    type(byLabel(dialog, 'Mobile phone'), '13800138000');
    type(byLabel(dialog, 'Email'), 'admin@example.com');
    // A new phone or e-mail takes the current password (the field shows once either changes).
    type(await until(() => byLabel(dialog, 'Current password'), 'no current password field'), admin.password);
    save.click();
    // The name and the avatar are saved at once; a new phone and e-mail wait for the code sent to
    // each (the dialog stays open with a code field per address: the end-to-end suite enters them).
    await until(() => byText(dialog, 'A code was sent to admin@example.com. The new address applies once you enter it here.'), 'no pending e-mail');
    expect(byText(dialog, 'A code was sent to 13800138000. The new address applies once you enter it here.')).to.not.equal(null);
    const session = await api<{ user: { id: string } }>('GET', '/cas/session');
    const info = await api<{ realName: string; mobilePhone?: string; email?: string; avatar: string }>('GET', `/user/${session.user.id}/basic_info`);
    expect({
      realName: info.realName,
      mobilePhone: info.mobilePhone ?? null,
      email: info.email ?? null,
      avatar: preview.getAttribute('src').endsWith(info.avatar),
    }).to.deep.equal({
      realName: 'Administrator',
      mobilePhone: null,
      email: null,
      avatar: true,
    });
  });

  it('shows its title in Chinese with locale="zh"', async () => {
    const element = await fixture(html`<iam-profile-dialog open locale="zh"></iam-profile-dialog>`);
    const dialog = await openDialog(element, '编辑个人信息');
    expect(byLabel(dialog, '真实姓名')).to.not.equal(null);
    element.setAttribute('locale', 'en');
    await until(() => byRole(element.shadowRoot, 'dialog', 'Edit personal information'), 'back to English');
  });
});

describe('<iam-password-dialog>', () => {
  it("user mode: the administrator resets a user's password with their own password", async () => {
    const user = await createUser(`pat${Date.now() % 100000}`, 'First-pass-1');
    const element = await fixture(html`<iam-password-dialog open mode="user" user-id=${user.id} username=${user.username}></iam-password-dialog>`);
    const dialog = await openDialog(element, "Reset the user's password");
    expect(byLabel(dialog, 'Username').value).to.equal(user.username);
    expect(byLabel(dialog, 'Username').readOnly).to.equal(true);
    expect(byLabel(dialog, 'Old password')).to.equal(null);

    const ok = byRole(dialog, 'button', 'OK');
    ok.click();
    await until(() => byText(dialog, 'This field is required'), 'no message for the administrator password');
    expect(byText(dialog, 'Please enter the password again')).to.not.equal(null);

    type(byLabel(dialog, 'Your password'), admin.password);
    type(byLabel(dialog, 'New password'), 'Second-pass-2');
    byRole(dialog, 'button', 'Show New password').click();
    await until(() => byLabel(dialog, 'New password').type === 'text', 'the password stayed hidden');
    byRole(dialog, 'button', 'Hide New password').click();
    await until(() => byLabel(dialog, 'New password').type === 'password', 'the password stayed shown');
    type(byLabel(dialog, 'Confirm the new password'), 'Second-pass-2');
    const changed = oneEvent(element, 'iam-password-changed');
    ok.click();
    expect((await changed).detail).to.deep.equal({ userId: user.id, mode: 'user' });
    await until(() => !byRole(element.shadowRoot, 'dialog'), 'the dialog did not close');

    // The new password works (a sign-in in another browser would; here the API is asked directly).
    const probe = await fetch('/api/authc/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'omit',
      body: JSON.stringify({
        username: user.username,
        password: await crypto.subtle
          .digest('SHA-256', new TextEncoder().encode('Second-pass-2'))
          .then((hash) => [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('')),
      }),
    });
    expect((await probe.json()).data.loginSuccess).to.equal(true);
  });

  it('self mode: old password, new password with show/hide, confirmation; Cancel closes', async () => {
    const element = await fixture(html`<iam-password-dialog open></iam-password-dialog>`);
    const dialog = await openDialog(element, 'Reset password');
    expect(byLabel(dialog, 'Old password')).to.not.equal(null);
    expect(byLabel(dialog, 'Username')).to.equal(null);
    type(byLabel(dialog, 'Old password'), 'whatever-1');
    type(byLabel(dialog, 'New password'), 'abcdef');
    type(byLabel(dialog, 'Confirm the new password'), 'abcdef');
    byRole(dialog, 'button', 'OK').click();
    await until(() => byLabel(dialog, 'New password').getAttribute('aria-invalid') === 'true', 'the policy did not apply');
    const closed = oneEvent(element, 'iam-close');
    byRole(dialog, 'button', 'Cancel').click();
    await closed;
    await until(() => !byRole(element.shadowRoot, 'dialog'), 'Cancel did not close');
  });
});

describe('a dialog element inside a host app’s shadow root (a Lit app)', () => {
  /** Whether `node` or anything containing it, across shadow roots, is hidden from assistive technology. */
  const hiddenOnTheWay = (node: Node | null): boolean => {
    for (let current = node; current; current = current.parentNode ?? (current as ShadowRoot).host ?? null)
      if (current instanceof Element && current.getAttribute('aria-hidden') === 'true') return true;
    return false;
  };

  it('keeps the open dialog in the accessibility tree, hides the page behind it, logs nothing, and undoes it on close', async () => {
    const page = await fixture(
      html`<div>
        <header>Host header</header>
        <my-app-host></my-app-host>
      </div>`,
    );
    const appRoot = page.querySelector('my-app-host').attachShadow({ mode: 'open' });
    appRoot.innerHTML = '<main><nav>Host navigation</nav><section></section></main>';
    const errors: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...parts: unknown[]) => errors.push(parts);
    try {
      const element = document.createElement('iam-password-dialog');
      element.setAttribute('open', '');
      appRoot.querySelector('section').append(element);
      const dialog = await openDialog(element, 'Reset password');
      await until(() => appRoot.querySelector('nav').getAttribute('aria-hidden') === 'true', 'the host app behind the dialog was not hidden');
      expect(hiddenOnTheWay(dialog), 'nothing that contains the dialog is aria-hidden').to.equal(false);
      expect(page.querySelector('header').getAttribute('aria-hidden'), 'the page outside the host app').to.equal('true');
      expect(errors).to.deep.equal([]);

      const closed = oneEvent(element, 'iam-close');
      byRole(dialog, 'button', 'Cancel').click();
      await closed;
      await until(() => !appRoot.querySelector('nav').hasAttribute('aria-hidden'), 'the host app stayed hidden after the dialog closed');
      expect(page.querySelector('header').hasAttribute('aria-hidden')).to.equal(false);
    } finally {
      console.error = consoleError;
    }
  });

  it('in a closed shadow root: the focus stays inside the open dialog and goes back to the host’s button, named, nothing logged', async () => {
    // A host component whose root the page cannot see (document.activeElement stops at its host, and
    // `shadowRoot` is null); a control of the page after it, where Tab would otherwise go.
    const page = await fixture(html`<div><my-closed-host></my-closed-host><button type="button">Page button</button></div>`);
    const appRoot = page.querySelector('my-closed-host').attachShadow({ mode: 'closed' });
    appRoot.innerHTML = '<button type="button">Change password</button><iam-password-dialog></iam-password-dialog>';
    const opener = appRoot.querySelector('button');
    const element = appRoot.querySelector('iam-password-dialog');
    opener.addEventListener('click', () => element.setAttribute('open', ''));
    const errors: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...parts: unknown[]) => errors.push(parts);
    try {
      opener.focus();
      await sendKeys({ press: 'Enter' });
      const dialog = await openDialog(element, 'Reset password');
      const focusInDialog = () => appRoot.activeElement === element && dialog.contains(element.shadowRoot.activeElement);
      await until(focusInDialog, 'the dialog did not take the focus');
      expect(hiddenOnTheWay(dialog), 'nothing that contains the dialog is aria-hidden').to.equal(false);
      expect(opener.getAttribute('aria-hidden'), 'the host’s own controls behind the dialog').to.equal('true');
      // Tab from the last control comes back into the dialog, not to the page's button.
      for (let i = 0; i < 12; i += 1) await sendKeys({ press: 'Tab' });
      expect(focusInDialog(), 'focus stayed inside').to.equal(true);

      const closed = oneEvent(element, 'iam-close');
      await sendKeys({ press: 'Escape' });
      await closed;
      await until(() => appRoot.activeElement === opener, 'the focus did not go back to the host’s button');
      expect(errors).to.deep.equal([]);
    } finally {
      console.error = consoleError;
    }
  });
});
