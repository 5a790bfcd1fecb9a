/** Wire shapes of the read endpoints (Schemas shared by the groups, the OpenAPI document and the typed client). */
export * from "./AccountJson.js"
export * from "./TransactionJson.js"
