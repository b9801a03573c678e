// Texts of values that arrive as data in message lists (a delivery's service type, a message's
// status): the known values have a text (a checked key), anything else is shown as it came.
import type { Translate } from '../../core/i18n';
import { serviceTypes } from '../../core/schemas/messaging';

const statuses = ['queued', 'sending', 'sent', 'failed', 'unread', 'read'] as const;

export function serviceTypeText(t: Translate, type: string): string {
  const known = serviceTypes.find((value) => value === type);
  return known ? t(`settings:serviceType.${known}`) : type;
}

export function messageStatusText(t: Translate, status: string): string {
  const known = statuses.find((value) => value === status);
  return known ? t(`settings:messageStatus.${known}`) : status;
}
