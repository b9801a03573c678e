// The public part of the login settings, which the sign-in form reads: a module of its own, so that
// the sign-in entry (its size budget) does not carry the console's settings calls (./settings.ts).
import { getSettingsLoginPublic } from '../contract/settings';
import type { PublicLoginSettings } from '../schemas/settings';
import { call } from './call';

/** `read`, with the callers that ask while an answer is on its way sharing it: the parts of one
 *  page that need the same document (the sign-in form and the page background; the branding and
 *  the settings screen) make one request. A later call reads again. */
export function sharedWhileInFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= read().finally(() => {
      pending = undefined;
    }));
}

/** What the sign-in page and the password forms follow (no sign-in needed). */
export const publicLoginSettings = sharedWhileInFlight((): Promise<PublicLoginSettings> =>
  call(getSettingsLoginPublic, {}, { silent: true, authRedirect: false }),
);
