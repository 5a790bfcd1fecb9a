import { Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect, Layer } from "effect"
import { LedgerMemory, MovenodeClient, MovenodeServer, Node, readDevnetGenesis } from "movenode"

// A node in this process: an in-memory ledger on the genesis the package ships (the Aptos devnet
// genesis), the node's services, and the REST API on a free port.
const NodeLive = MovenodeServer.layer({ listen: { host: "127.0.0.1", port: 0 } }).pipe(
  Layer.provide(Node.layer),
  Layer.provide(LedgerMemory.layer({ genesis: readDevnetGenesis() }))
)

const program = Effect.gen(function* () {
  const { address } = yield* MovenodeServer
  const origin = `http://127.0.0.1:${address.port}`

  // The typed client: one method per endpoint, typed by the definition the server serves.
  const client = yield* MovenodeClient.make(origin)
  const info = yield* client.general.ledgerInfo()
  const balance = yield* client.accounts.balance({
    params: { address: "0xa550c18", asset_type: "0x1::aptos_coin::AptosCoin" }
  })
  // Any other answer than a 2xx fails with its HTTP status and the error body.
  const missing = yield* client.accounts.module({ params: { address: "0x1", module_name: "nope" } }).pipe(
    Effect.map(() => "found"),
    Effect.catchTag("MovenodeApiError", (e) => Effect.succeed(`${e.status} ${e.error_code}`))
  )

  // The Aptos TypeScript SDK, pointed at the same node.
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: `${origin}/v1` }))
  const sdkLedger = yield* Effect.promise(() => aptos.getLedgerInfo())
  const [chainId] = yield* Effect.promise(() =>
    aptos.view<[number]>({ payload: { function: "0x1::chain_id::get", functionArguments: [] } })
  )
  const coin = yield* Effect.promise(() => aptos.getAccountModule({ accountAddress: "0x1", moduleName: "coin" }))

  return {
    chainId: info.chain_id, // 243: the devnet's
    balance, // 18446744073709551615n: exact, as a bigint
    missing, // "404 module_not_found"
    sdkLedgerVersion: sdkLedger.ledger_version, // "0"
    sdkChainId: chainId, // 243
    coinFunctions: coin.abi?.exposed_functions.length
  }
})

// The node runs while `program` does and stops when it is done.
export const result = await Effect.runPromise(program.pipe(Effect.provide(NodeLive)))
console.log(result)
