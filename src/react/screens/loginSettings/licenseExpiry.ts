// When the license deserves a banner: it has expired, or it expires within WARN_DAYS.
import type { LicenseStatus } from '../../../core/types';

const WARN_DAYS = 30;
const DAY_MS = 86_400_000;

export type ExpiryNotice = { kind: 'expired'; date: string } | { kind: 'soon'; date: string; days: number } | undefined;

export function expiryNotice(status: LicenseStatus | undefined, now: number = Date.now()): ExpiryNotice {
  if (!status?.expiresAt) return undefined;
  const at = Date.parse(status.expiresAt);
  if (Number.isNaN(at)) return undefined;
  if (status.status === 'expired' || at <= now) return { kind: 'expired', date: status.expiresAt };
  const days = Math.ceil((at - now) / DAY_MS);
  return days <= WARN_DAYS ? { kind: 'soon', date: status.expiresAt, days } : undefined;
}
