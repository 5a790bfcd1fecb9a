/**
 * The one error every BCS decoder raises. Decoders throw it internally (a throw is the cheapest way
 * out of a deep decode); `decode` in `Codec.ts` catches it at the boundary and returns a Result, so
 * callers never see an exception.
 */
export class BcsError extends Error {
  override readonly name = "BcsError"
  constructor(
    readonly reason: string,
    readonly offset: number
  ) {
    super(`BCS: ${reason} at byte ${offset}`)
  }
}
