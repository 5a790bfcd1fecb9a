/**
 * Aptos metadata carried in a module's METADATA table: error maps (abort-code descriptions),
 * `#[view]`/`#[event]`/resource-group attributes and compilation metadata. Pure.
 */
export * from "./decodeMetadata.js"
export * from "./ModuleMetadata.js"
