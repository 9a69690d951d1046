// C8: a bearer token that cannot spill. Every rendering (String(), JSON, util.inspect / console.log) prints
// the fixed placeholder `Credential(<redacted>)`; the token is held outside the object (a module-private
// WeakMap), so even property enumeration or inspect with customInspect:false shows nothing. The only reader
// is `authorizationHeader`, which the HTTP client uses to set the header.
import { inspect } from 'node:util';

export const REDACTED_CREDENTIAL = 'Credential(<redacted>)';

const secrets = new WeakMap<Credential, string>();

export class Credential {
  constructor(token: string) {
    // RFC 6750 tokens are visible ASCII; anything else (CR/LF in particular) could split the header.
    if (typeof token !== 'string' || token.length === 0 || !/^[\x21-\x7e]+$/.test(token)) {
      throw new TypeError('Credential: a bearer token must be non-empty visible ASCII (value not shown)');
    }
    secrets.set(this, token);
    Object.freeze(this);
  }

  toString(): string {
    return REDACTED_CREDENTIAL;
  }

  toJSON(): string {
    return REDACTED_CREDENTIAL;
  }

  [inspect.custom](): string {
    return REDACTED_CREDENTIAL;
  }
}

/** The `authorization` header value for a credential. Only for building a request; never log it. */
export function authorizationHeader(credential: Credential): string {
  const token = secrets.get(credential);
  if (token === undefined) throw new TypeError('not a Credential');
  return `Bearer ${token}`;
}

/** Replace every occurrence of the credential's token in `text` by the placeholder. */
export function scrubCredential(text: string, credential: Credential | undefined): string {
  const token = credential && secrets.get(credential);
  return token ? text.split(token).join(REDACTED_CREDENTIAL) : text;
}
