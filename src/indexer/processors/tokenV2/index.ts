/**
 * The `token_v2_processor` (digital assets on objects, indexer.md §2.2):
 * - `tokenV2Processor.ts`: the rows of `current_collections_v2`, `current_token_datas_v2`,
 *   `current_token_ownerships_v2`, `token_activities_v2` (rules in its overview);
 * - `tokenV1.ts`: token v1 (`0x3::token` tables) collections, token datas and ownerships;
 * - `tokenObjects.ts`: the token-related resources each written object holds in one transaction;
 * - `propertyMap.ts`: a `0x4::property_map::PropertyMap` as `token_properties` JSON;
 * - `moveJson.ts`: defensive readers of the API's Move JSON.
 */
export * from "./moveJson.js"
export * from "./propertyMap.js"
export * from "./tokenObjects.js"
export * from "./tokenV1.js"
export * from "./tokenV2Processor.js"
