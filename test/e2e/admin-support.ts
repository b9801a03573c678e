// Shared steps of the administration end-to-end tests: seeding through the real API as some user,
// opening the console signed in, and opening a screen from the side menu.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { transformPassword } from '../../src/core/password';
import { ADMIN, ApiClient } from './harness';

export const PASSWORD = 'Secret-e2e-1';

export interface Tenant {
  id: string;
  parentId: string | null;
  name: string;
  version: number;
}
export interface Created {
  id: string;
  version: number;
}

/** The API as some user, with the calls the tests seed data with. */
export class Seeder extends ApiClient {
  static async as(baseUrl: string, username: string = ADMIN.username, password: string = ADMIN.password): Promise<Seeder> {
    const seeder = new Seeder(baseUrl);
    await seeder.signIn(username, password);
    return seeder;
  }

  async rootTenant(): Promise<Tenant> {
    const tree = await this.call<Tenant[]>('GET', '/tenants/tree');
    const root = tree.find((tenant) => tenant.parentId === null);
    assert.ok(root, 'the tree has a root');
    return root;
  }

  tenant(parentId: string, name: string, type = 'company'): Promise<Tenant> {
    return this.call<Tenant>('POST', '/tenants', { parentId, name, type });
  }

  async user(fields: { username: string; realName?: string; password?: string; [field: string]: unknown }): Promise<Created> {
    const { password = PASSWORD, realName = 'Seeded_User', ...rest } = fields;
    return this.call<Created>('POST', '/user', { realName, ...rest, password: await transformPassword(password), extraProp: {} });
  }

  app(name: string, fields: Record<string, unknown> = {}): Promise<Created> {
    return this.call<Created>('POST', '/apps', { name, ...fields });
  }

  role(appId: string, name: string): Promise<Created> {
    return this.call<Created>('POST', `/apps/${appId}/roles`, { name });
  }

  privilege(appId: string, fields: { name: string; key: string; parentId?: string; path?: string }): Promise<Created> {
    return this.call<Created>('POST', `/apps/${appId}/privileges`, fields);
  }
}

/**
 * Opens the console signed in as `username`: the sign-in call goes through the page's own context
 * (its cookie jar and user agent, as the form would send it), then the page opens where the answer
 * says. A test whose subject is the sign-in form uses submitSignIn; this is for tests that start
 * signed in (loading and filling /login costs each of them seconds of the e2e suite). `path` opens
 * that page instead (a test that starts on one screen skips the home screen's load).
 */
export async function signIn(page: Page, baseUrl: string, username: string, password: string, path?: string): Promise<void> {
  const answer = await page.context().request.post(`${baseUrl}/api/authc/login`, {
    headers: { origin: baseUrl },
    data: { username, password: await transformPassword(password) },
  });
  const envelope = (await answer.json()) as { code: number; message: string; data?: { loginSuccess?: boolean; hasNextStep?: boolean; redirectURL?: string } };
  if (!answer.ok() || envelope.code !== 0 || !envelope.data?.loginSuccess || envelope.data.hasNextStep) {
    throw new Error(`signIn(${username}): ${answer.status()} ${envelope.message} (a sign-in with a next step goes through submitSignIn and its screens)`);
  }
  await page.goto(new URL(path ?? (envelope.data.redirectURL || '/'), baseUrl).href);
  await page.waitForURL((url) => url.pathname !== '/login');
}

export const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

/** Opens an Operations screen from the side menu and waits for its heading. */
export async function openFromMenu(page: Page, name: string, parent = 'Operations'): Promise<void> {
  const link = mainMenu(page).getByRole('link', { name, exact: true });
  const group = mainMenu(page).getByRole('button', { name: parent });
  // Waits for the menu to render (after a reload the group may open by itself, on its current screen).
  await link.or(group).first().waitFor();
  if (!(await link.isVisible()) && (await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await link.click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

/** The body rows of a table (the header row excluded). */
export const bodyRows = (table: Locator) => table.locator('tbody tr');

/** The text of one column of a table's rows. */
export async function columnTexts(table: Locator, column: number): Promise<string[]> {
  return bodyRows(table).evaluateAll((rows, index) => rows.map((row) => row.children[index]?.textContent?.trim() ?? ''), column);
}

/** Waits until `check` holds (polling a few times a second, for at most `ms`). */
export async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
