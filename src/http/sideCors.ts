/**
 * The CORS headers of the local chain's side servers (faucet, readiness, GraphQL stub): any origin
 * (the reference's faucet allows GET and POST from anywhere; wallets and dapps call it from
 * browsers). One list for the servers on the event loop (`sideServer.ts`) and the readiness answers
 * of the front process (`front/frontMain.ts`).
 */
export const SIDE_CORS: ReadonlyArray<readonly [string, string]> = [
  ["access-control-allow-origin", "*"],
  ["access-control-allow-methods", "GET, POST, OPTIONS"],
  ["access-control-allow-headers", "*"]
]
