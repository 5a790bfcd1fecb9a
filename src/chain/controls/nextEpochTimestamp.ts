import type { StateReader } from "../../ledger/Ledger.js"
import { ConfigKeys, decodeBlockResource, decodeConfiguration } from "../onChainConfig.js"

/**
 * The first timestamp at which a block reconfigures (the block prologue starts a new epoch when
 * `timestamp − last_reconfiguration_time ≥ epoch_interval`, `0x1::block`), and at least one µs
 * after the chain's clock: what `aptos move sim advance-epoch` computes. Undefined when the
 * chain's configuration or block resource cannot be read.
 */
export const nextEpochTimestamp = (state: StateReader, chainUsec: bigint): bigint | undefined => {
  const configuration = decodeConfiguration(state.get(ConfigKeys.configuration))
  const block = decodeBlockResource(state.get(ConfigKeys.blockResource))
  if (configuration === undefined || block === undefined) return undefined
  const due = configuration.lastReconfigurationTimeUsec + block.epochIntervalUsec
  return due > chainUsec ? due : chainUsec + 1n
}
