/**
 * Test helper: gives a fresh local chain the history a person browsing it with the Explorer looks
 * at, all through the TypeScript SDK as a user would make it: two faucet-funded accounts, an APT
 * transfer, a fungible asset made by a hand-assembled module (`faCoinModule.ts`) and a transfer of
 * it, and an NFT collection with two tokens minted through `0x4::aptos_token`, one transferred.
 * Returns what the pages are then checked against (addresses, versions, hashes, amounts, names).
 */
import {
  Account,
  AccountAddress,
  Aptos,
  AptosConfig,
  createObjectAddress,
  Ed25519PrivateKey,
  Network,
  type UserTransactionResponse
} from "@aptos-labs/ts-sdk"
import type { LocalChainInfo } from "../../src/LocalChain.js"
import { packageMetadata } from "../execution/bytecode.js"
import { FA_COIN_SEED, faCoinModule } from "./faCoinModule.js"

export const APT_TRANSFER = 123_456_789n // 1.23456789 APT
export const MNC_TRANSFER = 250n * 10n ** 8n // 250 MNC
export const COLLECTION_NAME = "Movenode Gallery"
export const COLLECTION_DESCRIPTION = "Pictures of a local chain"
export const TOKEN_NAMES = ["Sunrise #1", "Sunrise #2"] as const

/** A picture inline (a data URI), so the Explorer shows it without a server to fetch it from. */
const picture = (fill: string): string =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='10' height='10' fill='${fill}'/><circle cx='5' cy='6' r='3' fill='#f5a623'/></svg>`
  )}`

export interface History {
  readonly alice: AccountAddress
  readonly bob: AccountAddress
  /** alice → bob, APT_TRANSFER octas. */
  readonly aptTransfer: UserTransactionResponse
  readonly faPublish: UserTransactionResponse
  /** alice → bob, MNC_TRANSFER of the fungible asset. */
  readonly faTransfer: UserTransactionResponse
  /** The fungible asset's metadata object. */
  readonly faMetadata: AccountAddress
  readonly collection: AccountAddress
  readonly collectionCreate: UserTransactionResponse
  /** The two tokens, in TOKEN_NAMES order; the first is transferred to bob. */
  readonly tokens: ReadonlyArray<AccountAddress>
  readonly tokenTransfer: UserTransactionResponse
}

export const sdkFor = (chain: LocalChainInfo): Aptos =>
  new Aptos(
    new AptosConfig({
      network: Network.LOCAL,
      fullnode: chain.apiUrl,
      faucet: chain.faucetUrl,
      indexer: chain.graphqlUrl
    })
  )

const submit = async (
  aptos: Aptos,
  signer: Account,
  transaction: Awaited<ReturnType<Aptos["transaction"]["build"]["simple"]>>
): Promise<UserTransactionResponse> => {
  const pending = await aptos.signAndSubmitTransaction({ signer, transaction })
  const done = await aptos.waitForTransaction({ transactionHash: pending.hash })
  if (!done.success) throw new Error(`transaction ${done.hash} failed: ${done.vm_status}`)
  return done as UserTransactionResponse
}

/** The object a transaction created holding `resourceType` (a mint's token, say). */
const createdObjects = (txn: UserTransactionResponse, resourceType: string): AccountAddress[] =>
  txn.changes.flatMap((c) =>
    c.type === "write_resource" && "data" in c && (c.data as { type: string }).type === resourceType
      ? [AccountAddress.from((c as { address: string }).address)]
      : []
  )

/** Funds two fresh accounts with the faucet, then makes the history described in the header. */
export const makeHistory = async (chain: LocalChainInfo): Promise<History> => {
  const aptos = sdkFor(chain)
  // Fixed keys, so screenshots of repeated runs show the same addresses.
  const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(`ed25519-priv-0x${"a1".repeat(32)}`) })
  const bob = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(`ed25519-priv-0x${"b0".repeat(32)}`) })
  await aptos.fundAccount({ accountAddress: alice.accountAddress, amount: 10_000_000_000 })
  await aptos.fundAccount({ accountAddress: bob.accountAddress, amount: 5_000_000_000 })

  const aptTransfer = await submit(
    aptos,
    alice,
    await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: APT_TRANSFER
    })
  )

  const faPublish = await submit(
    aptos,
    alice,
    await aptos.publishPackageTransaction({
      account: alice.accountAddress,
      metadataBytes: packageMetadata("MovenodeCoin", ["fa_coin"]),
      moduleBytecode: [faCoinModule(alice.accountAddress.toUint8Array())]
    })
  )
  const faMetadata = createObjectAddress(alice.accountAddress, FA_COIN_SEED)
  const faTransfer = await submit(
    aptos,
    alice,
    await aptos.transferFungibleAsset({
      sender: alice,
      fungibleAssetMetadataAddress: faMetadata,
      recipient: bob.accountAddress,
      amount: MNC_TRANSFER
    })
  )

  const collectionCreate = await submit(
    aptos,
    alice,
    await aptos.createCollectionTransaction({
      creator: alice,
      name: COLLECTION_NAME,
      description: COLLECTION_DESCRIPTION,
      uri: picture("#1d3557"),
      maxSupply: 100
    })
  )
  const collection = createObjectAddress(alice.accountAddress, COLLECTION_NAME)
  const tokens: AccountAddress[] = []
  for (const [i, name] of TOKEN_NAMES.entries()) {
    const minted = await submit(
      aptos,
      alice,
      await aptos.mintDigitalAssetTransaction({
        creator: alice,
        collection: COLLECTION_NAME,
        description: `${name}, minted on movenode`,
        name,
        uri: picture(i === 0 ? "#457b9d" : "#e63946")
      })
    )
    const made = createdObjects(minted, "0x4::token::Token")
    if (made.length !== 1) throw new Error(`mint ${minted.hash} created ${made.length} tokens`)
    tokens.push(made[0]!)
  }
  const tokenTransfer = await submit(
    aptos,
    alice,
    await aptos.transferDigitalAssetTransaction({
      sender: alice,
      digitalAssetAddress: tokens[0]!,
      recipient: bob.accountAddress
    })
  )

  return {
    alice: alice.accountAddress,
    bob: bob.accountAddress,
    aptTransfer,
    faPublish,
    faTransfer,
    faMetadata,
    collection,
    collectionCreate,
    tokens,
    tokenTransfer
  }
}
