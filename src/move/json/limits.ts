/** Bounds on one conversion, so that a hostile value or layout fails cleanly instead of exhausting memory. */
export interface ConversionLimits {
  /** Deepest nesting of vectors/structs/enums walked (the Move VM's value depth limit is 128). */
  readonly maxDepth: number
  /** Largest BCS output (JSON → BCS) or input (BCS → JSON) in bytes. */
  readonly maxBytes: number
  /** Largest number of elements in one vector. */
  readonly maxVectorLength: number
}

export const defaultConversionLimits: ConversionLimits = {
  maxDepth: 128,
  maxBytes: 8 * 1024 * 1024,
  maxVectorLength: 1024 * 1024
}
