// captcha image.
import { getCaptchaImage } from '../contract/auth';
import { randomHex } from '../random';
import { urlOf } from './call';

/** A fresh captcha image URL (a random `r` defeats caches); `key` binds the captcha to this sign-in form. */
export function captchaImageUrl(key?: string): string {
  return urlOf(getCaptchaImage, { query: { r: Math.random().toString(36).slice(2), key } });
}

/** A random key for `captchaImageUrl` and the login form's `captchaKey`. */
export function newCaptchaKey(): string {
  return randomHex(16);
}
