// SMS through an HTTP vendor with templates: a JSON POST of the phone number, template id, sign
// name and template parameters, signed with HMAC-SHA256 when the channel has an access secret:
//   X-Timestamp: <ms>   X-Signature: base64(HMAC-SHA256(accessSecret, "<ms>\n<body>"))
// The parameters come from the channel's templateParams (values with {{title}}, {{content}} or
// {{<param>}} placeholders), or are title and content plus the message's own parameters.
import { createHmac } from 'node:crypto';
import { postJson } from './http';
import { DeliveryErrorCode } from '../../../src/core/schemas/delivery-error';
import { DeliveryError, type Sender } from './types';

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => values[name] ?? '');

function smsSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${body}`).digest('base64');
}

export const sendSms: Sender = async (settings, message, outbound) => {
  const phone = message.address?.replace(/[\s-]/g, '');
  if (!phone || !/^\+?\d{5,20}$/.test(phone)) throw new DeliveryError(DeliveryErrorCode.NoMobile);
  const values = { title: message.title, content: message.content, ...message.params };
  const mapping = settings.templateParams ? (JSON.parse(settings.templateParams) as Record<string, string>) : undefined;
  const params = mapping ? Object.fromEntries(Object.entries(mapping).map(([name, template]) => [name, fill(template, values)])) : values;
  const body = JSON.stringify({ phone, templateId: settings.templateId, signName: settings.signName || undefined, params });
  const timestamp = String(Date.now());
  const headers: Record<string, string> = { 'x-timestamp': timestamp };
  if (settings.accessKeyId) headers['x-access-key'] = settings.accessKeyId;
  if (settings.accessSecret) headers['x-signature'] = smsSignature(settings.accessSecret, timestamp, body);
  await postJson(settings.url ?? '', body, headers, outbound);
};
