// The configuration in use, as a store (kept apart from config.ts, which stays free of runtime
// dependencies because the server imports it).
import { atom } from 'nanostores';
import { resolveConfig, type DeepPartial, type IamConfig } from './config';

/** The configuration in use (system config + other settings), for the core and the UI. */
export const $config = atom<IamConfig>(resolveConfig());

/** Replaces the configuration in use with the defaults merged with `partial`. */
export function setConfig(partial: DeepPartial<IamConfig> = {}): void {
  $config.set(resolveConfig(partial));
}
