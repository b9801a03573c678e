// The captcha image's `src`. On the API's own origin, its URL. On another origin (token mode on a
// host page), a strict host CSP allows images from the page's origin only: the image is fetched
// (connect-src already allows the API) and shown through a blob: URL, so the host's policy needs
// `img-src blob:` rather than the API's origin (docs/deployment.md, CSP per mode).
import { useEffect, useState } from 'react';
import { captchaImageUrl } from '../../core/api/captcha';
import { apiIsCrossOrigin } from '../../core/http';

/** The `src` of the captcha bound to `key` (undefined while hidden or loading). Every load issues a
 *  new captcha on the server: one load per key. */
export function useCaptchaImage(shown: boolean, key: string): string | undefined {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!shown) return setSrc(undefined);
    const url = captchaImageUrl(key);
    if (!apiIsCrossOrigin()) return setSrc(url);
    let objectUrl: string | undefined;
    let current = true;
    fetch(url, { credentials: 'omit' })
      .then((response) => (response.ok ? response.blob() : Promise.reject(new Error(String(response.status)))))
      .then((blob) => {
        if (!current) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      // The field stays; the person can ask for another image.
      .catch(() => current && setSrc(undefined));
    return () => {
      current = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [shown, key]);
  return src;
}
