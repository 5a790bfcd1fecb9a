/** Limits applied by every decoder unless a caller passes tighter ones. */
export interface BcsLimits {
  /** Largest element count or byte length accepted for one vector/bytes/string. */
  readonly maxLength: number
  /** Deepest nesting of recursive values (type tags, Move values). */
  readonly maxDepth: number
}

export const defaultLimits: BcsLimits = {
  maxLength: 16 * 1024 * 1024,
  maxDepth: 64
}
