// Every screen of the route table (core/routes.ts ScreenId), each a lazily loaded chunk. A screen
// lives in src/react/screens/<screenId>/ and default-exports its component.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadNamespaces, type Namespace } from '../../core/i18n';
import type { ScreenId } from '../../core/routes';
import type { ScreenProps } from '../screens/types';

type Screen = LazyExoticComponent<ComponentType<ScreenProps>>;

/** A screen whose first paint shows texts of its own namespaces: they are fetched together with its
 *  chunk, so that they are there when it first renders and nothing moves when they arrive
 *  (bench/layout-shift.mjs). */
function withTexts(load: () => Promise<{ default: ComponentType<ScreenProps> }>, ...namespaces: Namespace[]): Screen {
  return lazy(async () => (await Promise.all([load(), loadNamespaces(...namespaces)]))[0]);
}

export const screens: Record<ScreenId, Screen> = {
  login: lazy(() => import('../screens/login/LoginScreen')),
  verified: lazy(() => import('../screens/verified/VerifiedScreen')),
  infoComplete: lazy(() => import('../screens/infoComplete/InfoCompleteScreen')),
  onlySignIn: lazy(() => import('../screens/onlySignIn/OnlySignInScreen')),
  notFound: lazy(() => import('../screens/notFound/NotFoundScreen')),
  forbidden: lazy(() => import('../screens/forbidden/ForbiddenScreen')),
  authRedirect: lazy(() => import('../screens/authRedirect/AuthRedirectScreen')),
  home: lazy(() => import('../screens/home/HomeScreen')),
  appList: lazy(() => import('../screens/appList/AppListScreen')),
  appDetail: lazy(() => import('../screens/appDetail/AppDetailScreen')),
  userList: lazy(() => import('../screens/userList/UserListScreen')),
  tenantList: lazy(() => import('../screens/tenantList/TenantListScreen')),
  loginSettings: lazy(() => import('../screens/loginSettings/LoginSettingsScreen')),
  channels: lazy(() => import('../screens/channels/ChannelsScreen')),
  menuList: lazy(() => import('../screens/menuList/MenuListScreen')),
  menuDetail: lazy(() => import('../screens/menuDetail/MenuDetailScreen')),
  auditLog: lazy(() => import('../screens/auditLog/AuditLogScreen')),
  scimTokens: lazy(() => import('../screens/scimTokens/ScimTokensScreen')),
  webhooks: lazy(() => import('../screens/webhooks/WebhooksScreen')),
  messages: lazy(() => import('../screens/messages/MessagesScreen')),
  messageHistory: lazy(() => import('../screens/messageHistory/MessageHistoryScreen')),
  userInfo: withTexts(() => import('../screens/userInfo/UserInfoScreen'), 'account'),
  oauthAuthorize: lazy(() => import('../screens/oauthAuthorize/OauthAuthorizeScreen')),
  samlAuthorize: lazy(() => import('../screens/samlAuthorize/SamlAuthorizeScreen')),
};
