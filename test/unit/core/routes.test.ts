// Every route through the guard, for anonymous users, members and the administrator profiles.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  afterLoginPath,
  breadcrumbOf,
  buildMenu,
  documentTitle,
  fillPath,
  firstPermittedPath,
  guard,
  isPublicLocation,
  isSafeRedirect,
  matchPath,
  matchRoute,
  routeByPath,
  routes,
  upPathOf,
  type GuardDecision,
  type RouteDef,
  type GuardInput,
} from '../../../src/core/routes';
import type { SessionStatus } from '../../../src/core/types';
import type { MenuItem } from '../../../src/core/acl';
import { loadNamespaces, type Translate } from '../../../src/core/i18n';
import { Permission } from '../../../src/core/permission-codes';

/** A stand-in translator that shows the key it was given. */
const translate = ((key: string) => `[${key}]`) as unknown as Translate;
const profiles = {
  platformAdmin: ['0', '1', '2', '3', '4'],
  tenantAdmin: ['0', '2', '4'],
  appAdmin: ['0', '1'],
  userAdmin: ['0', '2'],
  settingAdmin: ['0', '3'],
  member: ['0'],
} as const;

function run(location: string, status: SessionStatus, permissions: readonly string[] = [], extra: Partial<GuardInput> = {}): GuardDecision {
  return guard({ location, status, permissions, appName: 'IAM', translate, ...extra });
}
const rendered = (decision: GuardDecision) => (decision.kind === 'render' ? decision.route.path : undefined);
const redirected = (decision: GuardDecision) => (decision.kind === 'redirect' ? decision.to : undefined);

describe('route table', () => {
  it('has every route with its flags', () => {
    const flags = Object.fromEntries(
      routes.map((route) => [
        route.path,
        [route.hidden ? 'hidden' : '', route.noLogin ? 'noLogin' : '', route.skipAcl ? 'skipAcl' : ''].filter(Boolean).join(' '),
      ]),
    );
    assert.deepEqual(flags, {
      '/login': 'hidden noLogin',
      '/verified/:code': 'hidden noLogin',
      '/infoComplete': 'hidden noLogin',
      '/onlySignIn': 'hidden noLogin',
      '/404': 'hidden noLogin',
      '/403': 'hidden noLogin',
      '/auth-redirect': 'hidden noLogin skipAcl',
      '/home/index': 'skipAcl',
      '/operate': '',
      '/operate/app': '',
      '/app/detail/:id': 'hidden',
      '/operate/user': '',
      '/operate/tenant/list': '',
      '/operate/setting': '',
      '/operate/tunnel': '',
      '/operate/menu': '',
      '/operate/audit': '',
      '/operate/scim': '',
      '/operate/webhooks': '',
      '/menu/detail/:id': 'hidden',
      '/profile': '',
      '/profile/message': 'skipAcl',
      '/profile/messageHis': 'skipAcl',
      '/profile/userInfo': 'skipAcl',
      '/oauth/authorize': 'hidden skipAcl',
      '/saml/authorize': 'hidden skipAcl',
    });
  });

  it('names are route.* keys; parents exist; every screen route has a screen id', () => {
    for (const route of routes) {
      assert.match(route.name, /^route\.\w+$/);
      if (route.parent) assert.ok(routeByPath(route.parent), `${route.path} parent`);
      if (!['/operate', '/profile'].includes(route.path)) assert.ok(route.screen, `${route.path} screen`);
    }
    assert.equal(routeByPath('/oauth/authorize')?.parent, undefined, 'oauth/authorize is top level');
  });

  it('detail routes take their id parameter, decoded', () => {
    assert.deepEqual(matchRoute('/app/detail/a%20b?tab=roles')?.params, { id: 'a b' });
    assert.deepEqual(matchRoute('/menu/detail/42/')?.params, { id: '42' });
    assert.deepEqual(matchRoute('/verified/xyz#top')?.params, { code: 'xyz' });
    assert.equal(matchRoute('/app/detail/%E0%A4%A'), undefined, 'a malformed escape matches nothing');
  });

  it('the public routes (no sign-in) are exactly the noLogin rows of the table', () => {
    for (const route of routes) {
      const location = route.path.replace(/:\w+/g, 'x1');
      assert.equal(isPublicLocation(`${location}?redirect=%2Fa#top`), route.noLogin === true, route.path);
    }
    assert.equal(isPublicLocation('/elsewhere'), false);
  });

  it('path patterns: one segment per parameter, decoded; a bad escape does not match', () => {
    assert.deepEqual(matchPath('/app/detail/:id', '/app/detail/a%20b/'), { id: 'a b' });
    assert.deepEqual(matchPath('/login', '/login?redirect=%2Fx'), {});
    assert.equal(matchPath('/app/detail/:id', '/app/detail/a/b'), undefined);
    assert.equal(matchPath('/app/detail/:id', '/app/detail/%E0%A4%A'), undefined);
  });

  it('breadcrumb: ancestors then the route', () => {
    const detail = routeByPath('/app/detail/:id');
    assert.ok(detail);
    assert.deepEqual(
      breadcrumbOf(detail).map((route) => route.path),
      ['/operate', '/operate/app', '/app/detail/:id'],
    );
  });

  it("up from a route under a parameterised parent goes to that parent with the location's parameter, never the literal pattern", () => {
    const list: RouteDef = { path: '/operate/app', name: 'route.app', layout: true, screen: 'appList', order: 1 };
    const detail: RouteDef = { path: '/app/detail/:id', name: 'route.appDetail', parent: list.path, layout: true, screen: 'appDetail', order: 1 };
    const clients: RouteDef = { path: '/app/detail/:id/clients', name: 'route.appDetail', parent: detail.path, layout: true, screen: 'appDetail', order: 1 };
    const params = matchPath(clients.path, '/app/detail/a%2Fb/clients') ?? {};
    assert.equal(upPathOf([list, detail, clients], params, '/home/index'), '/app/detail/a%2Fb');
    assert.equal(upPathOf([list, detail], { id: '7' }, '/home/index'), '/operate/app');
    assert.equal(upPathOf([{ ...detail, parent: undefined }], { id: '7' }, '/home/index'), '/home/index');
    assert.equal(fillPath(detail.path, {}), undefined);
  });
});

describe('guard: routes that need no login', () => {
  const open = ['/login', '/verified/abc', '/infoComplete', '/onlySignIn', '/404', '/403', '/auth-redirect'];
  for (const location of open) {
    it(`${location} renders for anonymous visitors and while the session is unknown`, () => {
      assert.equal(rendered(run(location, 'anonymous')), matchRoute(location)?.route.path);
      assert.equal(rendered(run(location, 'unknown')), matchRoute(location)?.route.path);
    });
  }

  it('/auth-redirect is exempt for signed-in users too', () => {
    assert.equal(rendered(run('/auth-redirect?ticket=1', 'authenticated', profiles.member)), '/auth-redirect');
  });

  it('a signed-in user opening /login goes on to the redirect, or the first permitted page', () => {
    assert.equal(redirected(run('/login?redirect=%2Foperate%2Fuser', 'authenticated', profiles.userAdmin)), '/operate/user');
    assert.equal(redirected(run('/login?redirect=%2Foperate%2Fuser', 'authenticated', profiles.member)), '/home/index');
    assert.equal(redirected(run('/login', 'authenticated', profiles.member)), '/home/index');
  });

  it('unknown paths go to /404', () => {
    for (const status of ['anonymous', 'authenticated', 'unknown'] as const) {
      assert.equal(redirected(run('/no/such/page', status, profiles.platformAdmin)), '/404');
    }
  });
});

describe('guard: layout routes', () => {
  const guarded: [path: string, location: string][] = [
    ['/home/index', '/home/index'],
    ['/operate/app', '/operate/app'],
    ['/app/detail/:id', '/app/detail/7'],
    ['/operate/user', '/operate/user?page=2'],
    ['/operate/tenant/list', '/operate/tenant/list'],
    ['/operate/setting', '/operate/setting'],
    ['/operate/tunnel', '/operate/tunnel'],
    ['/operate/menu', '/operate/menu'],
    ['/menu/detail/:id', '/menu/detail/9'],
    ['/profile/message', '/profile/message'],
    ['/profile/messageHis', '/profile/messageHis'],
    ['/profile/userInfo', '/profile/userInfo'],
    ['/oauth/authorize', '/oauth/authorize?client_id=x'],
  ];

  /** Which profiles may open each screen. */
  const allowed: Record<string, (keyof typeof profiles)[]> = {
    '/home/index': ['platformAdmin', 'tenantAdmin', 'appAdmin', 'userAdmin', 'settingAdmin', 'member'],
    // A tenant administrator's code 4 covers /operate/…, but the apps need code 1 and the
    // platform settings code 3 (`alsoNeeds`): the server refuses those calls to them.
    '/operate/app': ['platformAdmin', 'appAdmin'],
    '/app/detail/:id': ['platformAdmin', 'appAdmin'],
    '/operate/user': ['platformAdmin', 'tenantAdmin', 'userAdmin'],
    '/operate/tenant/list': ['platformAdmin', 'tenantAdmin'],
    '/operate/setting': ['platformAdmin', 'settingAdmin'],
    '/operate/tunnel': ['platformAdmin'],
    '/operate/menu': ['platformAdmin', 'tenantAdmin'],
    '/menu/detail/:id': ['platformAdmin', 'tenantAdmin'],
    '/profile/message': ['platformAdmin', 'tenantAdmin', 'appAdmin', 'userAdmin', 'settingAdmin', 'member'],
    '/profile/messageHis': ['platformAdmin', 'tenantAdmin', 'appAdmin', 'userAdmin', 'settingAdmin', 'member'],
    '/profile/userInfo': ['platformAdmin', 'tenantAdmin', 'appAdmin', 'userAdmin', 'settingAdmin', 'member'],
    '/oauth/authorize': ['platformAdmin', 'tenantAdmin', 'appAdmin', 'userAdmin', 'settingAdmin', 'member'],
  };

  for (const [path, location] of guarded) {
    it(`${path}: sign-in first, then rendered or 403 by permission`, () => {
      assert.equal(redirected(run(location, 'anonymous')), `/login?redirect=${encodeURIComponent(location)}`);
      assert.equal(run(location, 'unknown').kind, 'pending');
      for (const [profile, permissions] of Object.entries(profiles)) {
        const decision = run(location, 'authenticated', permissions);
        if (allowed[path]?.includes(profile as keyof typeof profiles)) {
          assert.equal(rendered(decision), path, `${profile} opens ${path}`);
          assert.equal(decision.kind === 'render' && decision.title, `[${matchRoute(location)?.route.name}] – IAM`);
        } else {
          assert.equal(redirected(decision), `/403?redirect=${encodeURIComponent(location)}`, `${profile} is refused ${path}`);
        }
      }
    });
  }

  it("with the ACL switch 'N' every screen opens for any signed-in user", () => {
    for (const [path, location] of guarded) assert.equal(rendered(run(location, 'authenticated', profiles.member, { aclSwitch: 'N' })), path);
  });

  it('parents without a screen go to their first permitted child', () => {
    assert.equal(redirected(run('/operate', 'authenticated', profiles.platformAdmin)), '/operate/app');
    assert.equal(redirected(run('/operate', 'authenticated', profiles.userAdmin)), '/operate/user');
    assert.equal(redirected(run('/operate', 'authenticated', profiles.settingAdmin)), '/operate/setting');
    assert.equal(redirected(run('/operate', 'authenticated', profiles.member)), '/403?redirect=%2Foperate');
    assert.equal(redirected(run('/profile', 'authenticated', profiles.member)), '/profile/message');
    assert.equal(redirected(run('/operate', 'anonymous')), '/login?redirect=%2Foperate');
  });

  it("'/' goes to the first visible permitted page (or sign-in)", () => {
    assert.equal(redirected(run('/', 'authenticated', profiles.platformAdmin)), '/home/index');
    assert.equal(redirected(run('/', 'anonymous')), '/login');
    assert.equal(run('/', 'unknown').kind, 'pending');
  });

  it('a disabled permission (code|1) does not open the route', () => {
    assert.equal(redirected(run('/operate/user', 'authenticated', ['0', '2|1'])), '/403?redirect=%2Foperate%2Fuser');
  });
});

describe('after sign-in', () => {
  it('goes to the first visible permitted page', () => {
    assert.equal(firstPermittedPath({ permissions: profiles.member }), '/home/index');
    assert.equal(afterLoginPath(undefined, { permissions: profiles.platformAdmin }), '/home/index');
  });

  it('follows a safe, permitted redirect only', () => {
    const context = { permissions: profiles.userAdmin };
    assert.equal(afterLoginPath('/operate/user?page=3', context), '/operate/user?page=3');
    assert.equal(afterLoginPath('/operate/tunnel', context), '/home/index', 'not permitted');
    assert.equal(afterLoginPath('/login', context), '/home/index');
    assert.equal(afterLoginPath('/nowhere', context), '/home/index');
    for (const unsafe of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      assert.equal(isSafeRedirect(unsafe), false, unsafe);
      assert.equal(afterLoginPath(unsafe, context), '/home/index');
    }
  });
});

describe('document title and menu', () => {
  it('title = route name + " – " + app name', async () => {
    await loadNamespaces();
    const route = routeByPath('/operate/user');
    assert.ok(route);
    assert.equal(documentTitle(route, 'Acme IAM', translate), '[route.user] – Acme IAM');
    assert.equal(documentTitle(route, 'Acme IAM'), 'Users – Acme IAM', 'translated with the core i18n by default');
  });

  const tree = (items: MenuItem[]): unknown[] =>
    items.map((item) => (item.children ? { [item.path]: tree(item.children) } : item.disabled ? `${item.path} (disabled)` : item.path));

  it('the route table marks its optional parts: a blacklisted feature leaves the menu', () => {
    assert.deepEqual(tree(buildMenu({ permissions: profiles.platformAdmin }, { featureBlacklist: ['messaging', 'menuPlans'] })), [
      '/home/index',
      { '/operate': ['/operate/app', '/operate/user', '/operate/tenant/list', '/operate/setting', '/operate/audit', '/operate/scim', '/operate/webhooks'] },
      { '/profile': ['/profile/userInfo'] },
    ]);
    assert.deepEqual(tree(buildMenu({ permissions: profiles.platformAdmin }, { featureBlacklist: ['tenants'] }))[1], {
      '/operate': [
        '/operate/app',
        '/operate/user',
        '/operate/setting',
        '/operate/tunnel',
        '/operate/menu',
        '/operate/audit',
        '/operate/scim',
        '/operate/webhooks',
      ],
    });
  });

  it('the side menu shows visible permitted routes, nested (max depth 2)', () => {
    assert.deepEqual(tree(buildMenu({ permissions: profiles.platformAdmin })), [
      '/home/index',
      {
        '/operate': [
          '/operate/app',
          '/operate/user',
          '/operate/tenant/list',
          '/operate/setting',
          '/operate/tunnel',
          '/operate/menu',
          '/operate/audit',
          '/operate/scim',
          '/operate/webhooks',
        ],
      },
      { '/profile': ['/profile/message', '/profile/messageHis', '/profile/userInfo'] },
    ]);
    assert.deepEqual(tree(buildMenu({ permissions: profiles.member })), [
      '/home/index',
      { '/profile': ['/profile/message', '/profile/messageHis', '/profile/userInfo'] },
    ]);
    assert.deepEqual(tree(buildMenu({ permissions: [Permission.SelfService, Permission.Users, `${Permission.Settings}|1`] }))[1], {
      '/operate': ['/operate/user', '/operate/setting (disabled)'],
    });
    // A tenant administrator: code 4 without 1 and 3 leaves out the apps, settings and channels.
    assert.deepEqual(tree(buildMenu({ permissions: profiles.tenantAdmin }))[1], {
      '/operate': ['/operate/user', '/operate/tenant/list', '/operate/menu', '/operate/audit', '/operate/scim', '/operate/webhooks'],
    });
    assert.deepEqual(tree(buildMenu({ permissions: [Permission.SelfService, Permission.Users, Permission.Operations, `${Permission.Apps}|1`] }))[1], {
      '/operate': ['/operate/app (disabled)', '/operate/user', '/operate/tenant/list', '/operate/menu', '/operate/audit', '/operate/scim', '/operate/webhooks'],
    });
  });

  it('the menu applies the configuration allow/deny rules', () => {
    assert.deepEqual(tree(buildMenu({ permissions: profiles.platformAdmin }, { deny: ['/operate/*'], allow: [] })), [
      '/home/index',
      { '/profile': ['/profile/message', '/profile/messageHis', '/profile/userInfo'] },
    ]);
  });
});
