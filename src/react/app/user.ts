// How the console names the signed-in person and their role (the profile menu shows
// 'regular tenant' or 'admin tenant').
import type { SessionUser } from '../../core/types';
import type { TextKey } from '../../core/i18n';

export function roleKey(user: Pick<SessionUser, 'isAdmin'>): TextKey {
  return user.isAdmin ? 'userRole.adminTenant' : 'userRole.regularTenant';
}

export function displayName(user: Pick<SessionUser, 'realName' | 'username'>): string {
  return user.realName || user.username;
}
