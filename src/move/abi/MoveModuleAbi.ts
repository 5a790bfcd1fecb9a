/**
 * The module ABI served by `GET /v1/accounts/{address}/module/{name}` under `abi`, in exactly the
 * JSON field names and order of the contract (snake_case on purpose: this object is the JSON).
 * See docs/abi.md for the decisions on enums, `is_phantom`, function types and signed integers.
 */
export type MoveAbility = "copy" | "drop" | "store" | "key"

export interface MoveGenericTypeParam {
  readonly constraints: ReadonlyArray<MoveAbility>
}

export interface MoveFunctionAbi {
  readonly name: string
  readonly visibility: "private" | "public" | "friend"
  readonly is_entry: boolean
  readonly is_view: boolean
  readonly generic_type_params: ReadonlyArray<MoveGenericTypeParam>
  readonly params: ReadonlyArray<string>
  readonly return: ReadonlyArray<string>
}

export interface MoveStructFieldAbi {
  readonly name: string
  readonly type: string
}

export interface MoveStructVariantAbi {
  readonly name: string
  readonly fields: ReadonlyArray<MoveStructFieldAbi>
}

export interface MoveStructAbi {
  readonly name: string
  readonly is_native: boolean
  readonly is_event: boolean
  readonly is_enum: boolean
  readonly abilities: ReadonlyArray<MoveAbility>
  readonly generic_type_params: ReadonlyArray<MoveGenericTypeParam>
  /** Empty for an enum (its fields live in `variants`). */
  readonly fields: ReadonlyArray<MoveStructFieldAbi>
  /** On every struct: the enum's variants in declaration order, `[]` for plain and native structs. */
  readonly variants: ReadonlyArray<MoveStructVariantAbi>
}

export interface MoveModuleAbi {
  readonly address: string
  readonly name: string
  readonly friends: ReadonlyArray<string>
  readonly exposed_functions: ReadonlyArray<MoveFunctionAbi>
  readonly structs: ReadonlyArray<MoveStructAbi>
}
