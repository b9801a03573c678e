// Active Directory's account states that keep a person out even with the right password
// (docs/ldap.md, "Active Directory account states"): disabled, expired (accountExpires), locked
// out, password expired, and "must change password at next logon" (pwdLastSet 0). They are read
// two ways, since Active Directory tells them both ways:
// - from the entry: userAccountControl's ACCOUNTDISABLE, LOCKOUT and PASSWORD_EXPIRED bits,
//   accountExpires (a Windows FILETIME: 100 ns steps since 1601; 0 and 0x7FFFFFFFFFFFFFFF mean
//   never) and pwdLastSet 0. DONT_EXPIRE_PASSWORD overrides the last two, as Windows does.
// - from the refused bind: Active Directory answers a bind of such an account with
//   invalidCredentials whose message names the reason (`AcceptSecurityContext error, data 773`),
//   whether or not the entry's attributes show it (LOCKOUT and PASSWORD_EXPIRED are computed, not
//   stored in userAccountControl).
// A state is told to the person only after the directory accepted their password (or named the
// state instead of a wrong password), so it tells nothing to someone guessing.

export type AccountState = 'disabled' | 'accountExpired' | 'locked' | 'passwordExpired' | 'mustChangePassword';

/** userAccountControl's bits read here. */
const ACCOUNTDISABLE = 0x2;
const LOCKOUT = 0x10;
const DONT_EXPIRE_PASSWORD = 0x1_0000;
const PASSWORD_EXPIRED = 0x80_0000;

/** accountExpires values that mean "never". */
const NEVER = new Set([0n, 0x7fff_ffff_ffff_ffffn]);
/** Milliseconds from the FILETIME epoch (1601-01-01) to the Unix epoch. */
const FILETIME_TO_UNIX_MS = 11_644_473_600_000n;

/** The attributes of an entry that carry its state besides the mapped accountControl. */
export const STATE_ATTRIBUTES = ['accountExpires', 'pwdLastSet'] as const;

export interface StateAttributes {
  accountControl: string;
  accountExpires: string;
  pwdLastSet: string;
}

function expiredAt(accountExpires: string, now: number): boolean {
  if (!/^\d{1,19}$/.test(accountExpires.trim())) return false;
  const filetime = BigInt(accountExpires.trim());
  return !NEVER.has(filetime) && filetime / 10_000n - FILETIME_TO_UNIX_MS <= BigInt(now);
}

/** The state an entry's attributes show at `now` (null: none that keeps the person out). */
export function stateOfEntry(attributes: StateAttributes, now: number): AccountState | null {
  const control = Number(attributes.accountControl);
  const flags = Number.isInteger(control) ? control : 0;
  const passwordNeverExpires = (flags & DONT_EXPIRE_PASSWORD) !== 0;
  if (flags & ACCOUNTDISABLE) return 'disabled';
  if (expiredAt(attributes.accountExpires, now)) return 'accountExpired';
  if (flags & LOCKOUT) return 'locked';
  if (passwordNeverExpires) return null;
  if (flags & PASSWORD_EXPIRED) return 'passwordExpired';
  return attributes.pwdLastSet.trim() === '0' ? 'mustChangePassword' : null;
}

/** Active Directory's reasons for refusing a bind with the account's own password (the `data`
 *  code of its invalidCredentials message), which it gives only when the password was right; 52e,
 *  a wrong password, is none of them. Not 775 (locked out): Active Directory answers it whatever
 *  the password, so read as a state it would tell anyone, without counting their tries, which
 *  names exist and are locked; it counts as a wrong password. */
const BIND_REFUSALS: Record<string, AccountState> = {
  '532': 'passwordExpired',
  '533': 'disabled',
  '701': 'accountExpired',
  '773': 'mustChangePassword',
};

/** The state a refused bind's message names (null: a wrong password, or any other refusal). */
export function stateOfBindRefusal(message: string): AccountState | null {
  const code = /\bdata ([0-9a-f]{3,8})\b/i.exec(message)?.[1]?.toLowerCase();
  return (code && BIND_REFUSALS[code]) || null;
}

/** States that disable the person here too (a synchronisation follows them); the others are the
 *  person's own to clear in Windows and only keep them from signing in meanwhile. */
export const disablesHere = (state: AccountState | null) => state === 'disabled' || state === 'accountExpired';

/** What the person reads (translated by server/http/messages.zh.json): what happened and what to do. */
export const STATE_MESSAGES: Record<AccountState, string> = {
  disabled: 'Your Windows account is disabled: ask your administrator to enable it',
  accountExpired: 'Your Windows account has expired: ask your administrator to extend it',
  locked: 'Your Windows account is locked after too many wrong passwords: wait until it unlocks, or ask your administrator to unlock it',
  passwordExpired: 'Your Windows password has expired: change your password in Windows first, then sign in with the new one',
  mustChangePassword: 'Your Windows password must be changed before it is used: change your password in Windows first, then sign in with the new one',
};
