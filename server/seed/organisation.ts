// The organisations of the seed: a tenant tree under the root tenant using the type labels,
// and the apps with their privilege trees and roles. Pure data and row builders; seed.ts writes them.
import type { Insertable } from 'kysely';
import type { AppTable, PrivilegeTable, RolePrivilegeTable, RoleTable, TenantTable } from '../db/tables';
import { Scope, Status, TenantType } from '../../src/core/enums';
import { newId } from '../auth/secrets';

interface TenantSpec {
  name: string;
  type: TenantType;
  /** Relative share of the users who work here (organisations only). */
  weight?: number;
  /** Mail domain of the organisation's people. */
  domain?: string;
  children?: TenantSpec[];
}

const department = (name: string, children?: TenantSpec[]): TenantSpec => ({ name, type: TenantType.Department, ...(children ? { children } : {}) });
const seats = (...regions: string[]): TenantSpec[] => regions.map((region) => ({ name: `${region}席位`, type: TenantType.Seat }));
const companyDepartments = (...names: string[]) => names.map((name) => department(name));

const ORGANISATIONS: TenantSpec[] = [
  {
    name: '星河科技有限公司',
    type: TenantType.Company,
    weight: 20,
    domain: 'xinghe-tech.example.com',
    children: [
      department('研发中心', companyDepartments('平台研发部', '移动研发部', '测试部')),
      ...companyDepartments('产品部', '市场部', '财务部', '人力资源部'),
      department('销售部', seats('华东区', '华北区', '华南区')),
      department('客户服务中心', seats('一线', '二线')),
    ],
  },
  {
    name: '云帆网络科技有限公司',
    type: TenantType.Company,
    weight: 14,
    domain: 'yunfan.example.com',
    children: [...companyDepartments('研发部', '运维部', '产品部', '法务部', '行政部'), department('销售部', seats('华东区', '西南区'))],
  },
  {
    name: '海川制造股份有限公司',
    type: TenantType.Company,
    weight: 12,
    domain: 'haichuan.example.com',
    children: companyDepartments('生产部', '质量管理部', '采购部', '财务部', '人力资源部', '信息部'),
  },
  {
    name: '北辰物流集团',
    type: TenantType.Company,
    weight: 11,
    domain: 'beichen.example.com',
    children: companyDepartments('运输部', '仓储部', '调度中心', '财务部', '信息中心'),
  },
  {
    name: '青禾医学研究院',
    type: TenantType.Institution,
    weight: 8,
    domain: 'qinghe-med.example.org',
    children: companyDepartments('科研处', '临床研究中心', '信息中心', '后勤处'),
  },
  {
    name: '东湖大学信息中心',
    type: TenantType.Institution,
    weight: 6,
    domain: 'donghu.example.edu',
    children: companyDepartments('网络部', '教务系统组', '数据组'),
  },
  {
    name: '滨江区政务服务中心',
    type: TenantType.GovernmentOffice,
    weight: 7,
    domain: 'binjiang.example.gov',
    children: companyDepartments('办公室', '政务服务科', '信息化科', '综合保障科'),
  },
  {
    name: '南山市数据资源局',
    type: TenantType.GovernmentOffice,
    weight: 5,
    domain: 'nanshan-data.example.gov',
    children: companyDepartments('办公室', '数据管理科', '安全科'),
  },
  {
    name: '远山公益基金会',
    type: TenantType.PrivateNonEnterpriseUnit,
    weight: 3,
    domain: 'yuanshan.example.org',
    children: companyDepartments('项目部', '募捐部'),
  },
  {
    name: '明德职业培训学校',
    type: TenantType.PrivateNonEnterpriseUnit,
    weight: 3,
    domain: 'mingde.example.org',
    children: companyDepartments('教学部', '招生办'),
  },
  { name: '自助注册用户', type: TenantType.RegisterTenant, weight: 6, domain: 'mail.example.net' },
  {
    name: '华南渠道合作伙伴',
    type: TenantType.Tenant,
    weight: 5,
    domain: 'partners.example.com',
    children: ['广州分销商', '深圳分销商', '厦门分销商'].map((name) => ({ name, type: TenantType.Tenant })),
  },
];

/** A tenant users are placed in, with the share of the users it receives. */
export interface Workplace {
  tenantId: string;
  weight: number;
  domain: string;
}

interface SeededOrganisation {
  /** The organisation's own tenant (its administrators sit here). */
  tenantId: string;
  domain: string;
}

export interface TenantPlan {
  rows: Insertable<TenantTable>[];
  organisations: SeededOrganisation[];
  workplaces: Workplace[];
}

/** Tenant rows for the whole tree under the root, and where the users go (the leaves). */
export function planTenants(root: { id: string; path: string }, now: number): TenantPlan {
  const plan: TenantPlan = { rows: [], organisations: [], workplaces: [] };
  const add = (spec: TenantSpec, parent: { id: string; path: string }, weight: number, domain: string) => {
    const id = newId();
    const path = `${parent.path}${id}/`;
    plan.rows.push({
      id,
      parentId: parent.id,
      path,
      name: spec.name,
      type: spec.type,
      scope: Scope.Tenant,
      status: Status.Enable,
      description: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    const children = spec.children ?? [];
    if (!children.length) plan.workplaces.push({ tenantId: id, weight, domain });
    children.forEach((child) => add(child, { id, path }, weight / children.length, domain));
    return id;
  };
  for (const organisation of ORGANISATIONS) {
    const domain = organisation.domain ?? 'example.com';
    plan.organisations.push({ tenantId: add(organisation, root, organisation.weight ?? 1, domain), domain });
  }
  return plan;
}

interface PrivilegeSpec {
  key: string;
  name: string;
  path?: string;
  children?: PrivilegeSpec[];
}

const PRIVILEGES: PrivilegeSpec[] = [
  { key: 'dashboard', name: '工作台', path: '/dashboard' },
  {
    key: 'records',
    name: '业务数据',
    path: '/records',
    children: [
      { key: 'records.view', name: '查看' },
      { key: 'records.edit', name: '编辑' },
      { key: 'records.export', name: '导出' },
    ],
  },
  { key: 'reports', name: '报表', path: '/reports' },
  { key: 'settings', name: '应用设置', path: '/settings' },
  { key: 'audit', name: '审计日志', path: '/audit' },
];

/** Role name → the privilege keys it grants ('*' = all). */
const ROLES = {
  管理员: ['*'],
  普通用户: ['dashboard', 'records', 'records.view', 'reports'],
  审计员: ['dashboard', 'records.view', 'audit'],
} as const;
export type RoleName = keyof typeof ROLES;

const APPS = [
  { name: '统一门户', slug: 'portal', detail: '员工统一入口与单点登录', isMaster: true },
  { name: 'OA协同办公', slug: 'oa', detail: '审批、公文与日程' },
  { name: 'CRM客户关系管理', slug: 'crm', detail: '客户、商机与合同' },
  { name: 'HR人力资源系统', slug: 'hr', detail: '组织、招聘与薪酬' },
  { name: '财务报销系统', slug: 'expense', detail: '费用报销与预算' },
  { name: '数据分析平台', slug: 'bi', detail: '报表与自助分析' },
  { name: '工单服务台', slug: 'helpdesk', detail: 'IT 服务请求与故障工单' },
  { name: '代码托管平台', slug: 'git', detail: '代码仓库与持续集成' },
];

export interface AppPlan {
  apps: Insertable<AppTable>[];
  privileges: Insertable<PrivilegeTable>[];
  roles: Insertable<RoleTable>[];
  rolePrivileges: RolePrivilegeTable[];
}

export function planApps(now: number): AppPlan {
  const plan: AppPlan = { apps: [], privileges: [], roles: [], rolePrivileges: [] };
  for (const spec of APPS) {
    const appId = newId();
    plan.apps.push({
      id: appId,
      name: spec.name,
      detail: spec.detail,
      entrypoint: `https://${spec.slug}.example.com/`,
      callbackUrl: `https://${spec.slug}.example.com/oauth/callback`,
      isMaster: spec.isMaster ? 1 : 0,
      status: Status.Enable,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    const idByKey = new Map<string, string>();
    const addPrivilege = (privilege: PrivilegeSpec, parentId: string | null, sort: number) => {
      const id = newId();
      idByKey.set(privilege.key, id);
      plan.privileges.push({ id, appId, parentId, name: privilege.name, key: privilege.key, sort, path: privilege.path ?? null, createdAt: now });
      privilege.children?.forEach((child, index) => addPrivilege(child, id, index));
    };
    PRIVILEGES.forEach((privilege, index) => addPrivilege(privilege, null, index));
    for (const [name, keys] of Object.entries(ROLES)) {
      const roleId = newId();
      plan.roles.push({ id: roleId, appId, name, description: `${spec.name}${name}`, version: 1, createdAt: now, updatedAt: now });
      const granted = (keys as readonly string[]).includes('*') ? [...idByKey.values()] : keys.map((key) => idByKey.get(key) as string);
      plan.rolePrivileges.push(...granted.map((privilegeId) => ({ roleId, privilegeId })));
    }
  }
  return plan;
}
