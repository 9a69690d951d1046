/**
 * TEST-ONLY signing key: the RFC 8032 §7.1 "TEST 1" Ed25519 key pair. Its secret is PUBLISHED in
 * the RFC, so anything it signs proves nothing about who signed it. It exists so fixtures, known-
 * answer vectors and the bundled reference provider produce byte-reproducible signatures.
 * Never use it, or trust it, outside tests and examples. (The spec's own §6.5 handshake example
 * publishes the same public key.)
 */
export const TEST_ONLY_RFC8032_TEST1 = Object.freeze({
  note: 'TEST-ONLY: RFC 8032 §7.1 TEST 1 key pair; the secret key is public, signatures made with it prove nothing',
  secret_key: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
  public_key: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  algorithm: 'ed25519',
  key_id: 'test-only-rfc8032-test1',
} as const);
