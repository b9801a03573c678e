// The text of the new-device notice (server/auth/devices.ts): when (UTC), which browser (coarse,
// from the user agent), the IP address, and what to do if it was not the person. The e-mail goes in
// the language of the sign-in request; the in-site message keeps its facts (messages.notice,
// migration 0036) and is written in the language each reader reads in (server/services/messages.ts).
import { describeAgent } from '../../src/core/user-agent';
import type { AnswerLanguage } from '../http/language';

export interface NewDeviceFacts {
  at: number;
  userAgent: string | null;
  ip: string;
  username: string;
}

/** "2024-05-01 08:30 UTC". */
const utc = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const texts: Record<AnswerLanguage, (facts: NewDeviceFacts, browser: { browser?: string; system?: string }) => { title: string; content: string }> = {
  en: ({ at, ip, username }, { browser, system }) => ({
    title: 'New sign-in to your account',
    content:
      `Your account ${username} was signed in from a device not seen before: ${utc(at)}, ${browser ?? 'an unknown browser'}${system ? ` on ${system}` : ''}, IP address ${ip}. ` +
      'If this was you, there is nothing to do. If it was not, change your password now and use "Sign out everywhere" in your personal center.',
  }),
  zh: ({ at, ip, username }, { browser, system }) => ({
    title: '您的账号在新设备上登录',
    content:
      `您的账号 ${username} 在一台此前未见过的设备上登录：${utc(at)}，${browser ?? '未知浏览器'}${system ? `（${system}）` : ''}，IP 地址 ${ip}。` +
      '如果是您本人操作，无需处理。如果不是，请立即修改密码，并在个人中心使用“在所有设备上退出”。',
  }),
};

export function newDeviceNotice(language: AnswerLanguage, facts: NewDeviceFacts): { title: string; content: string } {
  return texts[language](facts, describeAgent(facts.userAgent));
}

/** The facts kept with the message, as stored in messages.notice. */
export const noticeFacts = (facts: NewDeviceFacts): string => JSON.stringify({ kind: 'newDevice', ...facts });

/** The stored notice (messages.notice) in `language`; undefined when it is not one this server writes. */
export function noticeText(language: AnswerLanguage, stored: string): { title: string; content: string } | undefined {
  const parsed = JSON.parse(stored) as Partial<NewDeviceFacts> & { kind?: string };
  if (parsed.kind !== 'newDevice' || typeof parsed.at !== 'number' || typeof parsed.ip !== 'string' || typeof parsed.username !== 'string') return undefined;
  return newDeviceNotice(language, { at: parsed.at, ip: parsed.ip, username: parsed.username, userAgent: parsed.userAgent ?? null });
}
