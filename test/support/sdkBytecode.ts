/**
 * Test helper: the Move bytecode the TypeScript SDK's own tests and examples carry (scripts, modules
 * and package metadata), kept verbatim in `test/fixtures/sdk/bytecode.json` with the SDK commit and
 * the file and line each came from. `{ADDRESS}` marks where the SDK substitutes an account address
 * (64 hex digits without `0x`); `sdkBytecode(name, address)` fills it in.
 */
import { readFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export interface SdkFixture {
  readonly name: string
  readonly kind: "script" | "module" | "metadata"
  readonly source: string
  readonly hex: string
}

const file = resolve(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "sdk", "bytecode.json")

export const sdkFixtures: ReadonlyArray<SdkFixture> = JSON.parse(readFileSync(file, "utf8")).fixtures

/** The address the SDK's argument tests publish from (`PUBLISHER_ACCOUNT_ADDRESS` in its helper.ts). */
export const SDK_PUBLISHER_PRIVATE_KEY = "0xc694948143dea59c195a4918d7fe06c2329624318a073b95f6078ce54940dae9"
export const SDK_PUBLISHER_ADDRESS = "2cca48b8b0d7f77ef28bfd608883c599680c5b8db8192c5e3baaae1aee45114c"

const hexOf = (fixture: SdkFixture, address: string): string => {
  if (!/^[0-9a-f]{64}$/.test(address)) throw new Error(`not a 64-digit address: ${address}`)
  return fixture.hex.replaceAll("{ADDRESS}", address)
}

/** The fixture's bytes, `{ADDRESS}` replaced by `address` (64 lower-case hex digits). */
export const sdkBytecode = (name: string, address: string = SDK_PUBLISHER_ADDRESS): Uint8Array => {
  const fixture = sdkFixtures.find((f) => f.name === name)
  if (fixture === undefined) throw new Error(`no SDK fixture named ${name}`)
  return Uint8Array.from(Buffer.from(hexOf(fixture, address), "hex"))
}
