/**
 * The readiness server's answer to `GET /` (ready_server.rs): 200 with `{"ready": [...],
 * "not_ready": []}` when every check answered, 503 otherwise. One rule for the server on the event
 * loop (`ReadinessServer.ts`) and the front process's answers from the results it was sent
 * (`front/frontMain.ts`).
 */
export const readinessAnswer = (
  ready: ReadonlyArray<unknown>,
  notReady: ReadonlyArray<unknown>
): {
  readonly status: number
  readonly body: { readonly ready: ReadonlyArray<unknown>; readonly not_ready: ReadonlyArray<unknown> }
} => ({
  status: notReady.length === 0 ? 200 : 503,
  body: { ready, not_ready: notReady }
})
