// Group-chat robots: DingTalk (signed webhooks) and WeCom (企业微信) webhooks. Both answer
// {errcode, errmsg}; errcode 0 is success. A recipient's mobile number becomes an @mention.
import { createHmac } from 'node:crypto';
import { postJson } from './http';
import { DeliveryErrorCode } from '../../../src/core/schemas/delivery-error';
import { DeliveryError, type Sender } from './types';

/** DingTalk's signature: base64(HMAC-SHA256(secret, "<timestamp>\n<secret>")), URL-encoded. */
function dingTalkSign(secret: string, timestamp: string): string {
  return encodeURIComponent(createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64'));
}

/** The webhook URL with timestamp and sign appended when the robot has a signing secret. */
function dingTalkUrl(webhook: string, secret: string | undefined, timestamp: string): string {
  if (!secret) return webhook;
  return `${webhook}${webhook.includes('?') ? '&' : '?'}timestamp=${timestamp}&sign=${dingTalkSign(secret, timestamp)}`;
}

function checkAnswer(answer: unknown): void {
  const { errcode, errmsg } = (answer ?? {}) as { errcode?: unknown; errmsg?: unknown };
  if (errcode !== 0) throw new DeliveryError(DeliveryErrorCode.RobotRefused, `${String(errcode ?? 'no errcode')}: ${String(errmsg ?? '').slice(0, 200)}`);
}

const mentions = (address: string | null) => (address && /^\+?[\d-]{5,20}$/.test(address) ? [address] : []);

export const sendDingTalk: Sender = async (settings, message, outbound) => {
  const atMobiles = mentions(message.address);
  const mentionText = atMobiles.map((mobile) => ` @${mobile}`).join('');
  const body = JSON.stringify({
    msgtype: 'markdown',
    markdown: { title: message.title, text: `#### ${message.title}\n\n${message.content}${mentionText}` },
    at: { atMobiles, isAtAll: false },
  });
  checkAnswer(await postJson(dingTalkUrl(settings.webhook ?? '', settings.secret, String(Date.now())), body, {}, outbound));
};

export const sendWeCom: Sender = async (settings, message, outbound) => {
  const body = JSON.stringify({
    msgtype: 'text',
    text: { content: `${message.title}\n${message.content}`, mentioned_mobile_list: mentions(message.address) },
  });
  checkAnswer(await postJson(settings.webhook ?? '', body, {}, outbound));
};
