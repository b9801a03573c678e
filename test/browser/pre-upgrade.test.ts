// Markup and properties that exist before the bundle defines <iam-login> still take effect.
import { expect, waitUntil } from '@open-wc/testing';
import { byLabel, byRole, type IamElement } from './helpers.js';

describe('<iam-login> before its definition', () => {
  it('renders markup that was in the page before the script loaded', async () => {
    document.body.insertAdjacentHTML('beforeend', '<iam-login locale="zh" theme="light"></iam-login>');
    const element = document.querySelector<IamElement>('iam-login');
    element.apiBase = '/custom-api';
    expect(customElements.get('iam-login')).to.equal(undefined);

    await import('../../dist/login.js');
    await waitUntil(() => byLabel(element, '用户名'), 'the pre-upgrade element did not render', { timeout: 5000 });
    expect(byLabel(element, '密码').getAttribute('autocomplete')).to.equal('current-password');
    expect(byRole(element, 'button', '登录')).to.not.equal(null);
    const card = byRole(element, 'heading', '登录').parentElement;
    expect(getComputedStyle(card).backgroundColor, 'the light theme').to.equal('rgb(255, 255, 255)');
    expect(element.apiBase).to.equal('/custom-api');
    expect(element.getAttribute('api-base')).to.equal('/custom-api');
    element.remove();
  });
});
