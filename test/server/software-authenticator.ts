// A small software authenticator for server tests: an ES256 key pair per credential (node:crypto),
// authenticator data, client data and a 'none' attestation (CBOR) built by hand, as a browser and
// a platform authenticator would answer navigator.credentials.create() and .get(). What the server
// verifies is real; each answer can be bent (origin, RP ID, counter, challenge, credential) to play
// a hostile or broken client.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** CBOR (RFC 8949) for what attestation needs: unsigned and negative integers, byte and text
 *  strings, maps. */
function cbor(value: number | string | Uint8Array | Map<number | string, unknown>): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const bytes = Buffer.alloc(3);
    bytes[0] = (major << 5) | 25;
    bytes.writeUInt16BE(length, 1);
    return bytes;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item as Parameters<typeof cbor>[0])])]);
}

export interface Credential {
  id: Buffer;
  key: KeyObject;
  publicKey: Buffer;
  userHandle: string;
  counter: number;
}

function newCredential(userHandle: string): Credential {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  // COSE_Key: kty EC2, alg ES256, crv P-256, x, y.
  const cose = cbor(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  return { id: randomBytes(16), key: privateKey, publicKey: cose, userHandle, counter: 0 };
}

/** A COSE_Key of kty AKP, alg ML-DSA-44 (-48), as an authenticator that supports post-quantum keys
 *  registers one: random bytes of the key's length stand in (a 'none' registration signs nothing). */
const mlDsa44PublicKey = () =>
  cbor(
    new Map<number, unknown>([
      [1, 7],
      [3, -48],
      [-1, randomBytes(1312)],
    ]),
  );

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export interface Bend {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  /** Without user verification (a touch only). */
  noUserVerification?: boolean;
  /** Registers an ML-DSA-44 public key (mlDsa44PublicKey), which this authenticator cannot sign with. */
  mlDsa44?: boolean;
}

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    readonly origin: string,
    readonly rpId: string,
  ) {}

  private clientData(type: string, challenge: string, bend: Bend): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: bend.challenge ?? challenge, origin: bend.origin ?? this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): a new credential (or `reuse`, another's) for these options. */
  create(options: CreationOptions, bend: Bend & { reuse?: Credential } = {}) {
    const credential = bend.reuse ?? newCredential(options.user.id);
    if (!bend.reuse) this.credentials.push(credential);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credential.id, bend.mlDsa44 ? mlDsa44PublicKey() : credential.publicKey]);
    const flags = FLAG_UP | FLAG_AT | (bend.noUserVerification ? 0 : FLAG_UV);
    const authData = authenticatorData(bend.rpId ?? options.rp.id ?? this.rpId, flags, bend.counter ?? 0, attested);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, bend)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** navigator.credentials.get(): an assertion by `credential` (default the first) for these options. */
  get(options: RequestOptions, bend: Bend & { credential?: Credential } = {}) {
    const credential = bend.credential ?? this.credentials[0];
    if (!credential) throw new Error('the authenticator holds no credential');
    credential.counter = bend.counter ?? credential.counter + 1;
    const authData = authenticatorData(bend.rpId ?? options.rpId ?? this.rpId, FLAG_UP | (bend.noUserVerification ? 0 : FLAG_UV), credential.counter);
    const clientData = this.clientData('webauthn.get', options.challenge, bend);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.key);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
    };
  }
}
