// The names of webhook events and delivery states, from the webhooks texts (an event this console
// does not know, from a newer server, is shown as sent).
import type { Translate } from '../../../core/i18n';
import { webhookEvents, WebhookDeliveryStatus, WEBHOOK_TEST_EVENT } from '../../../core/schemas/webhooks';

type Underscored<E extends string> = E extends `${infer Head}.${infer Tail}` ? `${Head}_${Tail}` : E;
type Known = (typeof webhookEvents)[number] | typeof WEBHOOK_TEST_EVENT;
const isKnown = (event: string): event is Known => event === WEBHOOK_TEST_EVENT || (webhookEvents as readonly string[]).includes(event);

export const eventName = (t: Translate, event: string) => (isKnown(event) ? t(`webhooks:eventNames.${event.replace('.', '_') as Underscored<Known>}`) : event);

const isStatus = (status: string): status is WebhookDeliveryStatus => (Object.values(WebhookDeliveryStatus) as string[]).includes(status);

export const statusName = (t: Translate, status: string) => (isStatus(status) ? t(`webhooks:deliveryStatus.${status}`) : status);
