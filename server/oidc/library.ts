// oidc-provider, imported when the provider is first built (the first /api/oidc request or API
// call that needs it), not at start: it is the largest library of the server (see server/lazy.ts).
import { lazy } from '../lazy';

export const oidcLibrary = lazy(() => import('oidc-provider'));
