// A role holding only a child privilege: the menu entries bound to the child's ancestors show
// (the way to the child's pages), the child's own entry shows, siblings and unrelated entries stay
// hidden, and the app counts as the person's (its menu is not empty).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';

interface Item {
  name: string;
  children?: Item[];
}
interface AppMenu {
  appId: string | null;
  menus: Item[];
}

let server: TestServer;
let admin: Client;
let appId = '';

const names = (items: Item[]): unknown[] => items.map((item) => (item.children?.length ? { [item.name]: names(item.children) } : item.name));

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const ok = async <T>(answer: Promise<{ status: number; body: { data: T } }>) => {
    const { status, body } = await answer;
    assert.equal(status, 200, JSON.stringify(body));
    return body.data;
  };
  appId = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Payroll' }))).id;
  const privilege = async (name: string, key: string, parentId: string | null = null) =>
    (await ok(admin.post<{ id: string }>(`/api/apps/${appId}/privileges`, { name, key, parentId }))).id;
  const salary = await privilege('Salary', 'salary');
  const payslips = await privilege('View payslips', 'payslips', salary);
  const ownPayslip = await privilege('Own payslip', 'ownpayslip', payslips);
  const raises = await privilege('Approve raises', 'raises', salary);
  const reports = await privilege('Reports', 'reports');
  const employee = (await ok(admin.post<{ id: string }>(`/api/apps/${appId}/roles`, { name: 'Employee' }))).id;
  await ok(admin.put(`/api/apps/${appId}/roles/${employee}/privileges`, { privilegeIds: [ownPayslip] }));
  const person = (await ok(admin.post<{ id: string }>('/api/user', { username: 'erin', realName: 'Erin_Employee', password: transform('Employee1!') }))).id;
  await ok(admin.put(`/api/apps/${appId}/roles/${employee}/members`, { userIds: [person] }));
  await ok(admin.post('/api/user', { username: 'nora', realName: 'Nora_Nobody', password: transform('Employee1!') }));
  await ok(
    admin.post('/api/menu-plans', {
      appId,
      name: 'Payroll menu',
      items: [
        {
          name: 'Salary',
          path: '/salary',
          privilegeId: salary,
          children: [
            {
              name: 'Payslips',
              path: '/salary/payslips',
              privilegeId: payslips,
              children: [{ name: 'Mine', path: '/salary/payslips/mine', privilegeId: ownPayslip }],
            },
            { name: 'Raises', path: '/salary/raises', privilegeId: raises },
            { name: 'Help', path: '/salary/help' },
          ],
        },
        { name: 'Reports', path: '/reports', privilegeId: reports },
        { name: 'Start', path: '/start' },
      ],
    }),
  );
});
after(async () => {
  await server.stop();
});

const menuOf = async (username: string) => {
  const client = server.client();
  assert.equal((await client.login(username, 'Employee1!')).body.data?.loginSuccess, true);
  const answer = await client.get<AppMenu[]>(`/api/menu/app/assignment/public/multi_app_menu/list?appId=${appId}`);
  assert.equal(answer.status, 200);
  return answer.body.data.find((menu) => menu.appId === appId)!.menus;
};

test("holding only a grandchild privilege shows its ancestors' entries, not their other children", async () => {
  assert.deepEqual(names(await menuOf('erin')), [{ Salary: [{ Payslips: ['Mine'] }, 'Help'] }, 'Start']);
});

test("a plan's bindings are read by name by its readers (code 4), not by members", async () => {
  const planId = (await admin.get<{ id: string }>(`/api/menu-plans/for/${appId}`)).body.data.id;
  const bound = await admin.get<{ name: string; parentId: string | null }[]>(`/api/menu-plans/${planId}/privileges`);
  assert.equal(bound.status, 200);
  assert.deepEqual(bound.body.data.map((each) => each.name).sort(), ['Approve raises', 'Own payslip', 'Reports', 'Salary', 'View payslips']);
  const member = server.client();
  await member.login('nora', 'Employee1!');
  assert.equal((await member.get(`/api/menu-plans/${planId}/privileges`)).status, 403);
  assert.equal((await admin.get('/api/menu-plans/no-such-plan/privileges')).status, 404);
});

test('holding nothing shows only the unbound entries', async () => {
  assert.deepEqual(names(await menuOf('nora')), ['Start']);
});
