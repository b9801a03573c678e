// Texts of values that arrive as data in message lists (a delivery's service type, a message's
// status, a delivery's error): the known values have a text (a checked key), anything else is shown as it came.
import type { Translate } from '../../core/i18n';
import type { DeliveryErrorCode } from '../../core/schemas/delivery-error';
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

/** A failed delivery (a message's or a webhook post's) in the console's language: its code
 *  translated, the raw detail beside it; a row from before the codes shows its stored words. */
export function deliveryErrorText(t: Translate, failure: { errorCode: DeliveryErrorCode | null; error: string | null }): string | null {
  if (!failure.errorCode) return failure.error;
  const reason = t(`admin:deliveryError.${failure.errorCode}`);
  return failure.error ? t('admin:deliveryError.withDetail', { reason, detail: failure.error }) : reason;
}
