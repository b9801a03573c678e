// Passkeys in the e2e tests: Chromium's virtual authenticator (DevTools WebAuthn domain: CTAP2,
// internal transport, resident keys, user verification) on a page, and a person's passkey added
// through the API with the server tests' software authenticator, as a credential the browser's
// authenticator can be given when the test wants it used.
import type { BrowserContext, Page } from 'playwright-core';
import { ApiClient } from './harness';
import { SoftwareAuthenticator } from '../server/software-authenticator';
import { transformPassword } from '../../src/core/password';

/** A credential of the DevTools WebAuthn domain (binary fields in base64). */
export interface Credential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/**
 * A virtual platform authenticator on `page` (no credential yet). It answers every request at once,
 * the sign-in form's autofill request (conditional mediation) too: a test that wants a button
 * keeps the credential out (`take`) until the form is there, then puts it back (`give`) and clicks.
 */
export async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async (): Promise<Credential[]> => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  const take = async () => {
    const held = await credentials();
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    return held;
  };
  const give = async (held: Credential[]) => {
    for (const credential of held) await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
  };
  return { credentials, take, give };
}

/** Adds a passkey named `name` for the person `own` is signed in as (their `password` confirms it),
 *  through the API: the credential to give a browser's authenticator. */
export async function addPasskeyByApi(own: ApiClient, iam: string, rpId: string, password: string, name: string): Promise<Credential> {
  const software = new SoftwareAuthenticator(iam, rpId);
  const options = await own.call<Parameters<SoftwareAuthenticator['create']>[0]>('POST', '/user/passkeys/options', {
    password: await transformPassword(password),
  });
  await own.call('POST', '/user/passkeys', { name, credential: software.create(options) });
  const stored = software.credentials[0]!;
  return {
    credentialId: stored.id.toString('base64'),
    isResidentCredential: true,
    rpId,
    signCount: stored.counter,
    privateKey: stored.key.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    userHandle: Buffer.from(stored.userHandle, 'base64url').toString('base64'),
  };
}
