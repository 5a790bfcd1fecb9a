/**
 * SLH-DSA-SHA2-128s (AnySignature 4 with AnyPublicKey 5, feature flag 107). Not verified yet: no
 * audited implementation is among the dependencies. Such a signature fails with INVALID_SIGNATURE
 * (a difference from the reference, which verifies it when flag 107 is on; listed in
 * docs/signatures.md).
 */
export const verifySlhDsaSha2128s = (
  _publicKey: Uint8Array,
  _signature: Uint8Array,
  _message: Uint8Array
): string | undefined => "SLH-DSA-SHA2-128s signatures are not supported by this node"
