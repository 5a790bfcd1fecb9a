/**
 * Move type layouts: the resolved shape of a Move type, what (de)serialisers walk.
 *
 * - `MoveTypeLayout`: the layout model, shared primitive layouts, the framework's special structs.
 * - `resolveLayout`: TypeTag → layout through a `ModuleSource` (modules by address and name),
 *   instantiating generic fields, bounded in depth and size.
 * - `signatureToTypeTag`: a module's signature token as a TypeTag, type parameters substituted.
 */
export * from "./LayoutError.js"
export * from "./ModuleSource.js"
export * from "./MoveTypeLayout.js"
export * from "./resolveLayout.js"
export * from "./signatureToTypeTag.js"
