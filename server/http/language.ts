// The language of an answer's message. The console sends its locale as Accept-Language; the
// server's messages are written in English and that English text is the key of the Chinese
// catalog (gettext style), so API clients that send no language keep plain English.
// A catalog key may hold one `{n}` for a number inside the message.
import zhCatalog from './messages.zh.json' with { type: 'json' };

export type AnswerLanguage = 'en' | 'zh';

const catalogs: Record<Exclude<AnswerLanguage, 'en'>, Record<string, string>> = { zh: zhCatalog };

/** 'zh' when the first language the client accepts is a Chinese one, else 'en'. */
export function answerLanguage(acceptLanguage: string | undefined): AnswerLanguage {
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first === 'zh' || first.startsWith('zh-') ? 'zh' : 'en';
}

const NUMBER = /\d+(?:\.\d+)?/;

/** `message` in `language`; a message the catalog lacks stays in English. */
export function localizeMessage(message: string, language: AnswerLanguage): string {
  if (language === 'en') return message;
  const catalog = catalogs[language];
  const exact = catalog[message];
  if (exact !== undefined) return exact;
  const number = NUMBER.exec(message)?.[0];
  if (number === undefined) return message;
  const templated = catalog[message.replace(NUMBER, '{n}')];
  return templated === undefined ? message : templated.replace('{n}', number);
}

/** The catalog's English keys, for the test that every server message has a translation. */
export function catalogKeys(language: Exclude<AnswerLanguage, 'en'>): string[] {
  return Object.keys(catalogs[language]);
}
