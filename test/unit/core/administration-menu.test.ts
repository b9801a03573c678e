// The administration screens no global menu plan takes away: the list matches the route table
// (paths, order, what opens them), and withAdministration puts back what a plan leaves out or binds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMINISTRATION_SCREENS, administrationOf, withAdministration } from '../../../src/core/administration-menu';
import { Permission } from '../../../src/core/permission-codes';
import { accessOf, routes } from '../../../src/core/routes';

const operateRoutes = routes.filter((route) => route.parent === '/operate' && route.screen && !route.hidden);
const kinds = [
  Object.values(Permission),
  [Permission.SelfService, Permission.Users, Permission.Operations],
  [Permission.SelfService, Permission.Apps],
  [Permission.SelfService],
];

test('the list is the route table’s administration screens, in order, opened by the same codes', () => {
  assert.deepEqual(
    ADMINISTRATION_SCREENS.map((screen) => [screen.path, screen.name, screen.icon]),
    operateRoutes.map((route) => [route.path, route.name, route.icon]),
  );
  for (const permissions of kinds) {
    const opened = operateRoutes.filter((route) => accessOf(route, { permissions }) === 'allowed').map((route) => route.path);
    assert.deepEqual(
      administrationOf(permissions).map((screen) => screen.path),
      opened,
      permissions.join(','),
    );
  }
});

test('screens a plan leaves out come back under its Operations item, or a new one', () => {
  const tenant = [Permission.SelfService, Permission.Users, Permission.Operations];
  const alone = withAdministration([{ name: 'Home', path: '/home/index' }], tenant);
  assert.deepEqual(alone[0], { name: 'Home', path: '/home/index' });
  assert.equal(alone[1]?.path, '/operate');
  assert.deepEqual(
    alone[1]?.children?.map((item) => item.path),
    ['/operate/user', '/operate/tenant/list', '/operate/menu', '/operate/audit', '/operate/scim', '/operate/webhooks'],
  );
  const grouped = withAdministration(
    [{ name: 'Admin', path: '/operate', privilegeId: 'p1', children: [{ name: 'Menus', path: '/operate/menu', privilegeId: 'p1' }] }],
    tenant,
  );
  assert.equal(grouped.length, 1);
  assert.equal(grouped[0]?.privilegeId, undefined, 'the binding on the way to an administration screen is ignored');
  assert.deepEqual(grouped[0]?.children?.[0], { name: 'Menus', path: '/operate/menu' });
  assert.equal(grouped[0]?.children?.length, 6);
});

test('a member gets nothing added, and other bindings stay', () => {
  const items = [{ name: 'Orders', path: 'https://shop.example.com', privilegeId: 'p1' }];
  assert.deepEqual(withAdministration(items, [Permission.SelfService]), items);
});
