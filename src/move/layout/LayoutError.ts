/** A type whose layout cannot be built: unknown module or struct, native struct, limits exceeded. */
export class LayoutError {
  readonly _tag = "LayoutError"
  constructor(
    readonly reason: "ModuleNotFound" | "StructNotFound" | "Invalid" | "TooDeep" | "TooLarge",
    readonly message: string
  ) {}
}
