/**
 * Hasura's custom scalars as graphql-js types. Input values are coerced straight to the store's
 * cells (`store/Dialect.ts`): `bigint` and `numeric` accept a JSON number or a numeric string (the
 * Explorer sends `"0"`), `timestamp` an ISO text, `jsonb` any JSON. Output is never produced through
 * graphql-js (the executor prints rows itself), except for introspection, which has none of these.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from "graphql"
import { canonicalDecimal, jsonbText, parseTimestamp } from "../store/values.js"

const I64_MAX = (1n << 63n) - 1n
const I64_MIN = -(1n << 63n)

const decimalOf = (value: unknown, name: string): string => {
  const text =
    typeof value === "number" && Number.isFinite(value)
      ? Number.isInteger(value)
        ? BigInt(value).toString()
        : String(value)
      : typeof value === "string"
        ? value
        : undefined
  const canonical = text === undefined || text.includes("e") ? undefined : canonicalDecimal(text)
  if (canonical === undefined) throw new GraphQLError(`expected a ${name}, got ${JSON.stringify(value)?.slice(0, 60)}`)
  return canonical
}

const literalValue = (node: ValueNode): unknown => {
  switch (node.kind) {
    case Kind.INT:
    case Kind.FLOAT:
      return node.value
    case Kind.STRING:
      return node.value
    case Kind.BOOLEAN:
      return node.value
    case Kind.NULL:
      return null
    case Kind.LIST:
      return node.values.map(literalValue)
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value)]))
    default:
      throw new GraphQLError("a variable is not allowed inside a jsonb literal")
  }
}

const bigintCell = (value: unknown): string => {
  const d = decimalOf(value, "bigint")
  if (d.includes(".") || BigInt(d) > I64_MAX || BigInt(d) < I64_MIN)
    throw new GraphQLError(`expected a bigint (a 64-bit integer), got ${JSON.stringify(value)?.slice(0, 60)}`)
  return d
}

export const bigintScalar = new GraphQLScalarType({
  name: "bigint",
  serialize: (v) => v,
  parseValue: bigintCell,
  parseLiteral: (node) => bigintCell(literalValue(node))
})

export const numericScalar = new GraphQLScalarType({
  name: "numeric",
  serialize: (v) => v,
  parseValue: (v) => decimalOf(v, "numeric"),
  parseLiteral: (node) => decimalOf(literalValue(node), "numeric")
})

const timestampCell = (value: unknown): bigint => {
  const usec = typeof value === "string" ? parseTimestamp(value) : undefined
  if (usec === undefined) throw new GraphQLError(`expected a timestamp, got ${JSON.stringify(value)?.slice(0, 60)}`)
  return usec
}

export const timestampScalar = new GraphQLScalarType({
  name: "timestamp",
  serialize: (v) => v,
  parseValue: timestampCell,
  parseLiteral: (node) => timestampCell(literalValue(node))
})

export const jsonbScalar = new GraphQLScalarType({
  name: "jsonb",
  serialize: (v) => v,
  parseValue: (v) => jsonbText(v),
  parseLiteral: (node) => jsonbText(literalValue(node))
})
