// The one gate for every place the server sends a browser to, or answers it a place to go: a path
// of our own, or an absolute http(s) URL on our origin, the issuer's or a configured one. Anything
// else becomes '/'.
//
// Browsers strip TAB/CR/LF from URLs and read a backslash as a slash, so "/\t/evil.example" and
// "/\evil.example" become "//evil.example" (another site). A target holding any control character,
// any white space (Unicode's too) or a backslash is refused outright rather than cleaned; so is
// one that turns into such a thing, or into "//host", once percent-decoded (a page may decode it).
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { isAllowedOrigin } from '../auth/gate';

// C0 and C1 controls, DEL, every Unicode space and line/paragraph separator, zero-width and
// direction marks, the byte-order mark, and the backslash.
const UNSAFE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff\\]/u;
/** What must not appear once decoded (an encoded space in a query is fine). */
const UNSAFE_DECODED = /[\u0000-\u001f\u007f-\u009f\\]/u;

/** The target and what it becomes once decoded (a page may decode it again), until it is stable. */
function readings(target: string): string[] | undefined {
  const all = [target];
  for (let round = 0; round < 3; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(all[all.length - 1]!);
    } catch {
      return undefined;
    }
    if (decoded === all[all.length - 1]) break;
    all.push(decoded);
  }
  return all;
}

function isOwnPath(reading: string): boolean {
  return reading.startsWith('/') && !reading.startsWith('//');
}

function isAllowedAbsolute(ctx: Ctx, target: string): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return isAllowedOrigin(ctx, url.origin) || url.origin === new URL(ctx.site.issuer()).origin;
}

/** `target` when it is safe to send a browser to, else '/'. */
export function safeRedirect(ctx: Ctx, req: FastifyRequest, target: string | undefined): string {
  if (!target) return '/';
  const all = readings(target);
  const safe =
    all !== undefined &&
    !UNSAFE.test(target) &&
    all.every((reading) => !UNSAFE_DECODED.test(reading) && (isOwnPath(reading) || isAllowedAbsolute(ctx, reading)));
  if (safe) return target;
  req.log.info({ target: target.slice(0, 200) }, 'redirect target refused');
  return '/';
}
