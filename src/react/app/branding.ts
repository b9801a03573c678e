// The console configuration and branding (System config and Other settings) from the server:
// GET /config is public, because the sign-in page shows the branding before anyone signs in.
// Until it answers (or when it fails) the defaults of core/config stay in use.
import { startConfig } from '../../core/api/settings';
import { setConfig } from '../../core/config-store';

/** Loads the configuration into the core's $config; answers whether the server gave one. */
export async function loadBranding(): Promise<boolean> {
  try {
    const answer = await startConfig();
    if (!answer?.value) return false;
    setConfig(answer.value);
    return true;
  } catch {
    return false;
  }
}
