// Login settings (the sign-in policy) and the console configuration / branding. The sign-in form's
// own read is ./public-settings.ts (the sign-in entry carries that module only).
import type { IamConfig } from '../config';
import * as calls from '../contract/settings';
import type { LoginSettings } from '../schemas/settings';
import { call } from './call';
import { sharedWhileInFlight } from './public-settings';

/** A settings document with the version its next update must carry (409 when it is stale). */
export interface Versioned<T> {
  value: T;
  version: number;
}

export function loginSettings(): Promise<Versioned<LoginSettings>> {
  return call(calls.getSettingsLogin);
}

/** PUT /settings/login; silent, because the caller explains a 409 (stale version) itself. */
export function saveLoginSettings(changes: Partial<LoginSettings>, version: number): Promise<Versioned<LoginSettings>> {
  return call(calls.putSettingsLogin, { body: { ...changes, version } }, { silent: true });
}

/** The answer the console's start read (its branding) and when, until a screen takes it. */
let startAnswer: { answer: Versioned<IamConfig>; at: number } | undefined;
/** How long the start's answer stands in for a screen's own read ("moments later"). */
const START_ANSWER_MS = 10_000;

/** The console configuration and branding; public (the sign-in page shows the branding). Silent:
 *  each caller says a failure its own way (the settings screen in place, the branding not at all). */
export const config = sharedWhileInFlight(() => call(calls.getConfig, {}, { silent: true, authRedirect: false }));

/** The console's start: reads the configuration and keeps the answer for the first screen that
 *  needs it moments later (the settings screen opened by the page's address). */
export async function startConfig(): Promise<Versioned<IamConfig>> {
  const answer = await config();
  startAnswer = { answer, at: Date.now() };
  return answer;
}

/** The configuration for a screen: the start's answer once if it is seconds old (no second request
 *  when the page opens on the screen), otherwise a new read. A version that went stale meanwhile answers 409 on saving. */
export function screenConfig(): Promise<Versioned<IamConfig>> {
  const start = startAnswer;
  startAnswer = undefined;
  return start && Date.now() - start.at < START_ANSWER_MS ? Promise.resolve(start.answer) : config();
}

/** PUT /config with the parts that changed; silent like saveLoginSettings. */
export function saveConfig(
  changes: { system?: Partial<IamConfig['system']>; settings?: Partial<IamConfig['settings']> },
  version: number,
): Promise<Versioned<IamConfig>> {
  return call(calls.putConfig, { body: { ...changes, version } }, { silent: true });
}
