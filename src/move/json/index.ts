/**
 * Move values as the API's JSON, both ways, by layout: the one converter the view endpoint and
 * encode_submission share.
 *
 * - `jsonToBcs`: a JSON argument → BCS bytes (aptos-api-behaviour §1.11), with the reference's
 *   error messages, bounded in depth and size.
 * - `bcsToJson`: BCS bytes → JSON (§1.10), keys sorted as the reference emits them.
 * - `addressFromJson` / `decimalIntegerFromJson`: the scalar parsers, with the reference's messages.
 *
 * Layouts come from `src/move/layout`; argument lists by a function's parameters (signers dropped,
 * the reference's count and per-argument messages) are `convertArguments` in `src/node/encode`.
 */
export * from "./bcsToJson.js"
export * from "./JsonConversionError.js"
export * from "./jsonToBcs.js"
export * from "./limits.js"
