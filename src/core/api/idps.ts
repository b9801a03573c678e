// Identity providers for third-party sign-in, as administrators manage them (permission 3).
import * as calls from '../contract/idp';
import type { CallAnswer } from '../contract/declare';
import type { IdpDetail, IdpInput } from '../schemas/idp';
import { call, type CallBody } from './call';

export type { IdpDetail, IdpInput };
type IdpSummary = CallAnswer<typeof calls.postIdps>;

/** Every provider, disabled ones too, with its settings; the client secret only as `hasClientSecret`. */
export function listAll(): Promise<IdpDetail[]> {
  return call(calls.getIdpsAll);
}

export function create(provider: CallBody<typeof calls.postIdps>): Promise<IdpSummary> {
  return call(calls.postIdps, { body: provider }, { silent: true });
}

/** A blank `config.clientSecret` keeps the stored secret. */
export function update(code: string, changes: CallBody<typeof calls.putIdpsByIdpCode>): Promise<IdpSummary> {
  return call(calls.putIdpsByIdpCode, { params: { idpCode: code }, body: changes }, { silent: true });
}

/** Enables or disables a provider (a failure is shown by the HTTP client). */
export function setEnabled(code: string, enabled: boolean): Promise<IdpSummary> {
  return call(calls.putIdpsByIdpCode, { params: { idpCode: code }, body: { enabled } });
}

export function remove(code: string): Promise<null> {
  return call(calls.deleteIdpsByIdpCode, { params: { idpCode: code } });
}
