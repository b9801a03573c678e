// Every rule: codes → patterns, code|flag, the three candidate paths, skip-ACL, the switch,
// menu allow/deny and the feature blacklist, 'Access is denied' cases, template conditions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  Feature,
  aclCandidates,
  accessDenial,
  filterMenu,
  hasAccess,
  mayGrantAppRoles,
  parsePermission,
  pathAccess,
  permissionPatterns,
  patternMatches,
  permissionTable,
  routeAccess,
  type MenuItem,
} from '../../../src/core/acl';
import { AclValue } from '../../../src/core/enums';
import { Permission } from '../../../src/core/permission-codes';

describe('permission codes', () => {
  const cases: [code: string, path: string, access: 'allowed' | 'denied'][] = [
    [Permission.Apps, '/app/detail/:id', 'allowed'],
    [Permission.Apps, '/operate/app', 'allowed'],
    [Permission.Apps, '/operate/user', 'denied'],
    [Permission.Users, '/operate/user', 'allowed'],
    [Permission.Users, '/user', 'allowed'],
    [Permission.Users, '/operate/setting', 'denied'],
    [Permission.Settings, '/operate/setting', 'allowed'],
    [Permission.Settings, '/setting', 'allowed'],
    [Permission.Settings, '/operate/user', 'denied'],
    [Permission.Operations, '/operate', 'allowed'],
    [Permission.Operations, '/operate/app', 'allowed'],
    [Permission.Operations, '/operate/user', 'allowed'],
    [Permission.Operations, '/operate/tenant/list', 'allowed'],
    [Permission.Operations, '/operate/setting', 'allowed'],
    [Permission.Operations, '/operate/tunnel', 'allowed'],
    [Permission.Operations, '/operate/menu', 'allowed'],
    [Permission.Operations, '/app/detail/:id', 'denied'],
    [Permission.SelfService, '/operate/user', 'denied'],
    [Permission.SelfService, '/app/detail/:id', 'denied'],
    ['99', '/operate/user', 'denied'],
  ];
  for (const [code, path, access] of cases) {
    it(`code ${code} → ${path}: ${access}`, () => assert.equal(pathAccess(path, [code]), access));
  }

  it('the codes are the five of the Permission map, as the session carries them', () => {
    assert.deepEqual(Object.values(Permission), ['0', '1', '2', '3', '4']);
    assert.deepEqual(
      Object.values(Permission).map((code) => permissionPatterns(code)),
      [[], ['/app/*'], ['/user'], ['/setting'], ['/operate/*']],
    );
  });

  it('codes combine', () => {
    assert.equal(pathAccess('/operate/setting', [Permission.SelfService, Permission.Users, Permission.Settings]), 'allowed');
    assert.equal(pathAccess('/operate/tunnel', [Permission.SelfService, Permission.Users, Permission.Settings]), 'denied');
  });
});

describe('code|flag (ACL value: False 0, Disabled 1, True 2)', () => {
  it('parses code and flag; no flag means True', () => {
    assert.deepEqual(parsePermission('2'), { code: Permission.Users, flag: AclValue.True });
    assert.deepEqual(parsePermission('2|2'), { code: Permission.Users, flag: AclValue.True });
    assert.deepEqual(parsePermission('3|1'), { code: Permission.Settings, flag: AclValue.Disabled });
    assert.deepEqual(parsePermission(' 4 | 0 '), { code: Permission.Operations, flag: AclValue.False });
  });

  it('drops blank entries and unknown flags (fail closed)', () => {
    for (const raw of ['', ' ', '|2', '2|', '2|9', '2|true', '2|2|2']) assert.equal(parsePermission(raw), undefined, raw);
    assert.deepEqual(permissionTable(['2|9', '', '3']), [{ code: Permission.Settings, flag: AclValue.True }]);
  });

  it('True allows, Disabled shows disabled, False denies', () => {
    assert.equal(pathAccess('/operate/user', ['2|2']), 'allowed');
    assert.equal(pathAccess('/operate/user', ['2|1']), 'disabled');
    assert.equal(pathAccess('/operate/user', ['2|0']), 'denied');
    assert.equal(pathAccess('/operate/user', ['2|1', '4']), 'allowed', 'a granting entry wins over a disabled one');
  });
});

describe('matching: path, path + "/", path + "/view"', () => {
  it('the three candidates', () => {
    assert.deepEqual(aclCandidates('/operate/app'), ['/operate/app', '/operate/app/', '/operate/app/view']);
    assert.deepEqual(aclCandidates('/operate/'), ['/operate', '/operate/', '/operate/view']);
  });

  it('a pattern matches the trailing whole segments; * stands for one or more segments', () => {
    assert.equal(patternMatches('/user', '/operate/user'), true);
    assert.equal(patternMatches('/user', '/operate/users'), false);
    assert.equal(patternMatches('/user', '/profile/userInfo'), false);
    assert.equal(patternMatches('/user', '/user/view'), false);
    assert.equal(patternMatches('/operate/*', '/operate'), false, 'the bare path needs the /view candidate');
    assert.equal(patternMatches('/operate/*', '/operate/view'), true);
    assert.equal(patternMatches('/operate/*', '/operate/tenant/list'), true);
    assert.equal(patternMatches('/app/*', '/app/detail/7'), true);
    assert.equal(patternMatches('/app/*', '/operate/app'), false);
    assert.equal(patternMatches('/app/*', '/operate/app/view'), true);
    assert.equal(patternMatches('/app/*', '/menu/detail/7'), false);
  });

  it('a route is allowed when any candidate matches', () => {
    assert.equal(pathAccess('/operate', ['4']), 'allowed', 'through /operate/view');
    assert.equal(pathAccess('/operate/app', ['1']), 'allowed', 'through /operate/app/view');
  });
});

describe('skip-ACL routes and the ACL-check switch', () => {
  it('skip-ACL routes are always allowed, even with no permissions', () => {
    assert.equal(routeAccess({ aclPath: '/profile/userInfo', skipAcl: true }, { permissions: [] }), 'allowed');
    assert.equal(routeAccess({ aclPath: '/profile/userInfo' }, { permissions: [] }), 'denied');
  });

  it("the switch value 'N' disables the check; 'Y' (the default) keeps it", () => {
    assert.equal(routeAccess({ aclPath: '/operate/user' }, { permissions: [Permission.SelfService], aclSwitch: 'N' }), 'allowed');
    assert.equal(routeAccess({ aclPath: '/operate/user' }, { permissions: [Permission.SelfService], aclSwitch: 'Y' }), 'denied');
    assert.equal(routeAccess({ aclPath: '/operate/user' }, { permissions: [Permission.SelfService] }), 'denied');
  });
});

describe("'Access is denied'", () => {
  const user = { isMaster: false, permissions: [Permission.SelfService] };

  it('an empty permission table is denied (unless the ACL check is off)', () => {
    assert.equal(accessDenial({ ...user, permissions: [] }, []), 'noPermissions');
    assert.equal(accessDenial({ ...user, permissions: ['', `${Permission.Users}|x`] }, []), 'noPermissions', 'unparseable entries do not count');
    assert.equal(accessDenial({ ...user, permissions: [] }, [], { aclSwitch: 'N' }), undefined);
    assert.equal(accessDenial(user, []), undefined, 'code 0 makes the table non-empty');
  });

  it('with the auth check, a non-master user without administered apps is denied', () => {
    assert.equal(accessDenial(user, [], { authCheck: true }), 'noAdministeredApps');
    assert.equal(accessDenial(user, undefined, { authCheck: true }), 'noAdministeredApps');
    assert.equal(accessDenial(user, [{ id: 'a1', name: 'App' }], { authCheck: true }), undefined);
    assert.equal(accessDenial({ ...user, isMaster: true }, [], { authCheck: true }), undefined);
    assert.equal(accessDenial(user, [], { authCheck: false }), undefined);
  });
});

describe('template conditions (admin flag or ACL)', () => {
  it('shows for an admin when the admin flag is asked, or for a True permission code', () => {
    assert.equal(hasAccess({ isAdmin: true, permissions: [] }, { admin: true }), true);
    assert.equal(hasAccess({ isAdmin: false, permissions: [Permission.Users] }, { admin: true }), false);
    assert.equal(hasAccess({ isAdmin: false, permissions: [Permission.Users] }, { admin: true, code: Permission.Users }), true);
    assert.equal(hasAccess({ isAdmin: false, permissions: [`${Permission.Users}|1`] }, { code: Permission.Users }), false);
    assert.equal(hasAccess({ isAdmin: true, permissions: [Permission.Users] }, { code: Permission.Settings }), false);
    assert.equal(hasAccess(undefined, { admin: true }), false);
  });
});

describe('role assignment (the grant rule)', () => {
  it('is offered to the platform administrator and to administrators of some app only', () => {
    assert.equal(mayGrantAppRoles({ platform: true, ownedAppIds: [] }), true);
    assert.equal(mayGrantAppRoles({ platform: false, ownedAppIds: ['app-1'] }), true);
    assert.equal(mayGrantAppRoles({ platform: false, ownedAppIds: [] }), false, 'a tenant administrator without apps');
  });
});

describe('menu filtering: allow/deny rules and the feature blacklist', () => {
  const menu: MenuItem[] = [
    { path: '/home/index', name: 'route.home' },
    {
      path: '/operate',
      name: 'route.operate',
      children: [
        { path: '/operate/app', name: 'route.app' },
        { path: '/operate/user', name: 'route.user' },
        { path: '/operate/tunnel', name: 'route.tunnel' },
      ],
    },
  ];
  /** The same menu with entries of optional features. */
  const featured: MenuItem[] = [
    ...menu,
    {
      path: '/profile',
      name: 'route.profile',
      children: [
        { path: '/profile/message', name: 'route.message', feature: Feature.Messaging },
        { path: '/profile/userInfo', name: 'route.userInfo' },
      ],
    },
    { path: '/operate/menu', name: 'route.menu', feature: Feature.MenuPlans },
    { path: '/operate/tenant/list', name: 'route.tenant', feature: Feature.Tenants },
  ];
  const paths = (items: MenuItem[]): string[] => items.flatMap((item) => [item.path, ...paths(item.children ?? [])]);

  it('without a blacklist every feature shows', () => {
    assert.deepEqual(paths(filterMenu(featured)), [
      '/home/index',
      '/operate',
      '/operate/app',
      '/operate/user',
      '/operate/tunnel',
      '/profile',
      '/profile/message',
      '/profile/userInfo',
      '/operate/menu',
      '/operate/tenant/list',
    ]);
  });

  it('a blacklisted feature hides its entries (a parent stays for its other children)', () => {
    assert.deepEqual(paths(filterMenu(featured, { featureBlacklist: [Feature.Messaging, Feature.Tenants] })), [
      '/home/index',
      '/operate',
      '/operate/app',
      '/operate/user',
      '/operate/tunnel',
      '/profile',
      '/profile/userInfo',
      '/operate/menu',
    ]);
    assert.deepEqual(paths(filterMenu(featured, { featureBlacklist: ['unknownFeature'] })).length, 10, 'an unknown feature hides nothing');
  });

  it('deny rules remove entries and their children', () => {
    assert.deepEqual(paths(filterMenu(menu, { deny: ['/operate/tunnel'] })), ['/home/index', '/operate', '/operate/app', '/operate/user']);
    assert.deepEqual(paths(filterMenu(menu, { deny: ['/operate/*'] })), ['/home/index']);
  });

  it('allow rules keep only matching entries (a matching parent keeps its children); empty parents disappear', () => {
    assert.deepEqual(paths(filterMenu(menu, { allow: ['/operate/user', '/home/index'] })), ['/home/index', '/operate', '/operate/user']);
    assert.deepEqual(paths(filterMenu(menu, { allow: ['/operate/*'] })), ['/operate', '/operate/app', '/operate/user', '/operate/tunnel']);
    assert.deepEqual(filterMenu(menu, { allow: ['/nothing'] }), []);
  });

  it('deny wins over allow', () => {
    assert.deepEqual(paths(filterMenu(menu, { allow: ['/operate/*'], deny: ['/operate/app'] })), ['/operate', '/operate/user', '/operate/tunnel']);
  });
});
