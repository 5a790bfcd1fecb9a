/**
 * Placeholder shape until the authenticator codecs land: the raw BCS of the authenticator enum.
 * (To be replaced by the full variant model.)
 */
export type TransactionAuthenticator = { readonly _tag: "Raw"; readonly bytes: Uint8Array }
