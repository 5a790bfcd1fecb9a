/**
 * A module's friend declarations (the reference's `friends` pass and the friend half of its
 * duplication check): a module names as friends only other modules at its own address, each once
 * (INVALID_FRIEND_DECL_WITH_SELF, INVALID_FRIEND_DECL_WITH_MODULES_OUTSIDE_ACCOUNT_ADDRESS,
 * DUPLICATE_ELEMENT). Friend cycles, and a friend that is also a dependency, need the other modules
 * (`moduleCycles.ts`).
 *
 * Why: `public(friend)` is an account's way of sharing code between its own modules; the reference
 * refuses a friend elsewhere, so a package doing it would publish here and fail on a network.
 */
import type { CompiledModule } from "../binary/CompiledModule.js"
import { addressEquals } from "../../domain/AccountAddress.js"
import type { VerifyFailure } from "./VerifyFailure.js"

export const verifyFriends = (m: CompiledModule): VerifyFailure | undefined => {
  const self = m.moduleHandles[m.selfModuleHandleIndex]!
  const selfAddress = m.addressIdentifiers[self.address]!
  const selfName = m.identifiers[self.name]
  const seen = new Set<string>()
  for (const f of m.friendDecls) {
    const name = m.identifiers[f.name]!
    const address = m.addressIdentifiers[f.address]!
    const sameAddress = addressEquals(address, selfAddress)
    if (sameAddress && name === selfName)
      return { status: "INVALID_FRIEND_DECL_WITH_SELF", message: "a module declares itself a friend" }
    if (!sameAddress)
      return {
        status: "INVALID_FRIEND_DECL_WITH_MODULES_OUTSIDE_ACCOUNT_ADDRESS",
        message: `friend ${name} is at another address than the module`
      }
    if (seen.has(name)) return { status: "DUPLICATE_ELEMENT", message: `friend ${name} is declared twice` }
    seen.add(name)
  }
  return undefined
}
