/**
 * A JSON value that does not fit its Move type, or BCS bytes that do not decode by a layout. The
 * message follows the reference's wording (serde's "invalid type: …, expected …", "field x not
 * found.", …) because clients match on it.
 */
export class JsonConversionError {
  readonly _tag = "JsonConversionError"
  constructor(readonly message: string) {}
}
