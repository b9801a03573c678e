// configuration defaults, constants, resolveConfig, and the enumerations.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { APP, HTTP, LAYOUT, PAGING, PASSWORD, TIMING, TOAST, UPLOAD, defaultConfig, resolveConfig } from '../../../src/core/config';
import { $config, setConfig } from '../../../src/core/config-store';
import {
  AclValue,
  BackgroundType,
  CaptchaKind,
  ConfigScope,
  ImageType,
  LoginMethod,
  MessageServiceType,
  Scope,
  SecondAuth,
  Status,
  TemplateSyncStatus,
  JobTaskStatus,
  SyncMode,
  TenantType,
  UserType,
  ZeroBasedScope,
} from '../../../src/core/enums';
import { loadNamespaces, t } from '../../../src/core/i18n';

describe('constants', () => {
  it('paging, HTTP, uploads, layout, toasts, timings, versions', () => {
    assert.deepEqual(PAGING, { page: 1, size: 10 });
    assert.deepEqual(HTTP, { apiBase: '/api', timeoutMs: 30_000, tracePath: '/trace' });
    assert.deepEqual(UPLOAD, { iconMaxBytes: 153_600, faviconMaxBytes: 20_480, iconPreviewWidth: 290, faviconPreviewWidth: 46 });
    assert.deepEqual(PASSWORD, { minLength: 6, maxLength: 20 });
    assert.equal(LAYOUT.mobileBreakpoint, 992);
    assert.equal(LAYOUT.sidebarWidthOpen, 160);
    assert.equal(LAYOUT.sidebarWidthCollapsed, 54);
    assert.equal(LAYOUT.topNavHeight, 50);
    assert.equal(LAYOUT.sideMenuMaxDepth, 2);
    assert.equal(LAYOUT.sideMenuUniqueOpen, true);
    assert.deepEqual(TOAST, { defaultMs: 5_000, forbiddenMs: 2_000, errorMs: 6_000 });
    assert.deepEqual(TIMING, { errorThrottleMs: 100, searchDebounceMs: 50, menuScrollRefreshMs: 200 });
    assert.equal(APP.fallbackVersion, 'v1.0.0');
    assert.equal(APP.defaultLocale, 'en');
    assert.equal(APP.defaultTheme, 'dark');
    assert.equal(APP.styleBasePath, '/scss');
    assert.equal(APP.routerBase, '/');
  });
});

describe('configuration defaults', () => {
  it('system config and other settings', () => {
    const { system, settings } = defaultConfig;
    assert.equal(system.loginTheme, 'normal');
    assert.equal(system.projectScene, 'td-iam');
    assert.equal(system.supportThirdLogin, 'N');
    assert.equal(system.topMenuType, 'self');
    assert.equal(settings.darkMode, true);
    assert.equal(settings.fixedHeader, true);
    assert.equal(settings.sidebarLogo, true);
    assert.deepEqual(settings.authConfig, { authType: 'default', tokenName: 'token' });
    assert.equal(settings.business.skywalkingSwitch, 'N', 'tracing off');
    assert.equal(settings.business.aclSwitch, 'Y', 'ACL check on');
    assert.ok(t(`app.name`), 'a default app name text exists');
  });

  it('resolveConfig merges nested objects key by key, replaces arrays, ignores undefined', () => {
    const config = resolveConfig({
      system: { appName: 'Acme' },
      settings: { authConfig: { authType: 'token' }, menuConfig: { deny: ['/operate/tunnel'] }, darkMode: undefined },
    });
    assert.equal(config.system.appName, 'Acme');
    assert.equal(config.system.loginTheme, 'normal');
    assert.deepEqual(config.settings.authConfig, { authType: 'token', tokenName: 'token' });
    assert.deepEqual(config.settings.menuConfig, { allow: [], deny: ['/operate/tunnel'] });
    assert.equal(config.settings.darkMode, true);
  });

  it('never shares or changes the defaults, and ignores __proto__ keys', () => {
    const config = resolveConfig();
    config.settings.menuConfig.allow.push('/x');
    assert.deepEqual(defaultConfig.settings.menuConfig.allow, []);
    const polluted = resolveConfig(JSON.parse('{"__proto__":{"polluted":true},"system":{"__proto__":{"polluted":true}}}'));
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    assert.equal((polluted.system as unknown as { polluted?: boolean }).polluted, undefined);
  });

  it('the config store holds the configuration in use', () => {
    setConfig({ settings: { business: { aclSwitch: 'N' } } });
    assert.equal($config.get().settings.business.aclSwitch, 'N');
    assert.equal($config.get().settings.business.skywalkingSwitch, 'N');
    setConfig();
    assert.equal($config.get().settings.business.aclSwitch, 'Y');
  });
});

describe('enumerations', () => {
  it('have the documented values', () => {
    assert.deepEqual(Object.values(BackgroundType), ['SolidColorBackground', 'PictureBackground', 'CustomCss', 'InitialVersion']);
    assert.deepEqual(Object.values(ImageType), ['Icon', 'IconAndText', 'Favicon', 'Text', 'CircleImage']);
    assert.deepEqual(Object.values(ConfigScope), ['APP', 'DOMAIN', 'LOGIN_PAGE', 'SYSTEM_CONFIG']);
    assert.deepEqual(Object.values(LoginMethod), ['USERNAME_PASSWORD', 'EMAIL_PASSWORD', 'PHONE_PASSWORD', 'PHONE_CAPTCHA']);
    // TOTP (an authenticator app) and PASSKEY are further ways besides the two of the login settings.
    assert.deepEqual(Object.values(SecondAuth), ['PASSWORD', 'PHONE_CAPTCHA', 'TOTP', 'PASSKEY']);
    assert.deepEqual(Object.values(CaptchaKind), ['NUMBER', 'LETTER', 'NUMBER_LETTER']);
    assert.deepEqual(Status, { Enable: 1, Disabled: 2 });
    assert.deepEqual(Scope, { Platform: 1, Tenant: 2 });
    assert.deepEqual(ZeroBasedScope, { Platform: 0, Tenant: 1 });
    assert.deepEqual(AclValue, { False: 0, Disabled: 1, True: 2 });
    assert.deepEqual(UserType, { Tenant: 1, Platform: 2, System: 3 });
    assert.deepEqual(Object.values(MessageServiceType), ['SMS', 'EMAIL', 'DING_TALK', 'QYWX_WEBHOOK', 'SITE_MESSAGE']);
    assert.deepEqual(Object.values(JobTaskStatus), ['Running', 'Terminated', 'Fail', 'Finish', 'TryAbort']);
    assert.deepEqual(Object.values(TemplateSyncStatus), ['Passed', 'Doing', 'Fail']);
    assert.deepEqual(Object.values(SyncMode), ['HandMode', 'AutoMode']);
    assert.equal(Object.values(TenantType).length, 9);
  });

  it('every tenant type has a label', async () => {
    await loadNamespaces();
    for (const type of Object.values(TenantType)) assert.doesNotMatch(t(`tenantType.${type}`), /^tenantType\./, type);
  });
});
