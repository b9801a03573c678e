// How the console names the signed-in person and their role (the home badge, the profile menu and
// the profile's "Role": platform administrator, tenant administrator or member).
import type { SessionUser } from '../../core/types';
import type { TextKey } from '../../core/i18n';

export function roleKey(user: Pick<SessionUser, 'isAdmin' | 'isMaster'>): TextKey {
  if (!user.isAdmin) return 'userRole.member';
  return user.isMaster ? 'userRole.platformAdmin' : 'userRole.tenantAdmin';
}

export function displayName(user: Pick<SessionUser, 'realName' | 'username'>): string {
  return user.realName || user.username;
}
