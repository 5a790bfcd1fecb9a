import * as Schema from "effect/Schema"
import { HttpApiSchema } from "effect/http-api"
import { U64Json } from "./IntegerSchemas.js"

/** The contract's error body: `{"message", "error_code", "vm_error_code"}`, always JSON. */
export class ErrorBody extends Schema.Class<ErrorBody>("ErrorBody")({
  message: Schema.String,
  error_code: Schema.String,
  vm_error_code: Schema.NullOr(U64Json)
}) {}

const at = (status: number) => ErrorBody.pipe(HttpApiSchema.status(status))

/** Framework-level errors every endpoint can answer (bad path/query, unknown route, internal). */
export const commonErrors = [at(400), at(404), at(500)] as const
/** Errors of endpoints that read at a `ledger_version` (adds 410 `version_pruned`). */
export const versionedErrors = [at(400), at(404), at(410), at(500)] as const
/** Errors of POST endpoints (adds the framing statuses). */
export const postErrors = [at(400), at(404), at(410), at(411), at(413), at(415), at(500)] as const
/** Errors of `POST /view`: adds 403 (the view filter) and 503 (too many views in flight). */
export const viewErrors = [...postErrors, at(403), at(503)] as const
