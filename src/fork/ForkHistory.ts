/**
 * History at or below the pinned version, answered from the source (as Anvil forwards reads of
 * blocks and transactions that predate its fork): transactions by version and by hash, blocks by
 * height and by version, decoded from the source's BCS answers into the ledger's own records, so
 * every endpoint renders them as it renders local ones. What the source answered is immutable
 * (it is at or below V), so it is kept in the remote cache's environment too: read once, it is
 * there offline. A block holding V that continues past it on the source ends at V on the fork.
 */
import { BcsReader } from "../bcs/index.js"
import { readHashValue } from "../domain/BlockCodec.js"
import type { ContractEvent } from "../domain/ContractEvent.js"
import { readContractEvent } from "../domain/ContractEventCodec.js"
import { readTransaction } from "../domain/TransactionCodec.js"
import { readTransactionInfo } from "../domain/TransactionInfoCodec.js"
import { readWriteSet } from "../domain/WriteSetCodec.js"
import type { BlockInfo, CommittedTransaction, TransactionSummary, VersionedEvent } from "../ledger/Ledger.js"
import { type ForkSourceClient, ForkSourceError } from "./ForkSourceClient.js"
import type { RemoteStateCache } from "./RemoteStateCache.js"

export interface ForkHistory {
  readonly transactionByVersion: (version: bigint) => Promise<CommittedTransaction | undefined>
  /** The source's transaction with this hash when it is at or below V; undefined otherwise. */
  readonly transactionByHash: (hash: Uint8Array) => Promise<CommittedTransaction | undefined>
  readonly blockByHeight: (height: bigint) => Promise<BlockInfo | undefined>
  /**
   * One event stream's events at or below V: from sequence number `start` up, or (start undefined)
   * the newest `limit`; ascending (the source's `GET /accounts/A/events/N`, its later ones dropped).
   */
  readonly eventsByKey: (
    address: Uint8Array,
    creationNumber: bigint,
    start: bigint | undefined,
    limit: number
  ) => Promise<ReadonlyArray<VersionedEvent>>
  /**
   * `sender`'s sequence-number transactions at or below V from sequence number `start` on, at most
   * `limit`, ascending (the source's `GET /accounts/A/transactions`, its later ones dropped).
   */
  readonly accountTransactions: (
    sender: Uint8Array,
    start: bigint,
    limit: number
  ) => Promise<ReadonlyArray<CommittedTransaction>>
  readonly blockByVersion: (version: bigint) => Promise<BlockInfo | undefined>
  /**
   * `sender`'s transaction summaries at or below `end` (≤ V), ascending: from version `start` up
   * (forward), or (start undefined) the newest `limit` (the source's
   * `GET /accounts/A/transaction_summaries` in BCS, its later ones dropped).
   */
  readonly summariesBySender: (
    sender: Uint8Array,
    start: bigint | undefined,
    end: bigint,
    limit: number
  ) => Promise<ReadonlyArray<TransactionSummary>>
}

/** `IndexedTransactionSummary::V1 { sender, version, transaction_hash, replay_protector }` (the reference's BCS). */
const readSummary = (r: BcsReader): TransactionSummary => {
  if (r.uleb128() !== 0) throw new Error("not an IndexedTransactionSummary::V1")
  const sender = r.fixed(32).slice()
  const version = r.u64()
  // Length-prefixed here (serde_bytes), as the reference's and movenode's answers write it.
  const hash = r.bytesWithLength().slice()
  if (hash.length !== 32) throw new Error(`a transaction hash of ${hash.length} bytes`)
  const tag = r.uleb128()
  const n = r.u64()
  if (tag > 1) throw new Error(`replay protector variant ${tag}`)
  return {
    sender,
    version,
    hash,
    replayProtector: tag === 0 ? { _tag: "Nonce", nonce: n } : { _tag: "SequenceNumber", sequenceNumber: n }
  }
}

interface OnChainData {
  readonly version: bigint
  readonly transaction: CommittedTransaction["transaction"]
  readonly info: CommittedTransaction["info"]
  readonly events: ReadonlyArray<ContractEvent>
  readonly accumulatorRootHash: Uint8Array
  readonly writeSet: CommittedTransaction["writeSet"]
}

const readOnChainData = (r: BcsReader): OnChainData => {
  const version = r.u64()
  const transaction = readTransaction(r)
  const info = readTransactionInfo(r)
  const n = r.uleb128()
  const events: ContractEvent[] = []
  for (let i = 0; i < n; i++) events.push(readContractEvent(r))
  const accumulatorRootHash = readHashValue(r)
  const writeSet = readWriteSet(r)
  return { version, transaction, info, events, accumulatorRootHash, writeSet }
}

export const makeForkHistory = (
  client: ForkSourceClient | undefined,
  cache: RemoteStateCache,
  pinned: { readonly version: bigint; readonly height: bigint }
): ForkHistory => {
  const offline = (what: string) =>
    new ForkSourceError(`fork: ${what} is at or below the fork version and not in the cache; the fork runs offline`)

  /** A GET through the persistent cache (answers at or below V never change). */
  const cachedGet = async (path: string, bcs: boolean): Promise<Uint8Array | undefined> => {
    const name = `${bcs ? "bcs" : "json"} ${path}`
    const held = cache.meta.get(name)
    if (held !== undefined) return held === "" ? undefined : new Uint8Array(Buffer.from(held, "base64"))
    if (client === undefined) throw offline(path)
    const bytes = bcs
      ? await client.getBcs(path)
      : await client
          .getJson(path)
          .then((j) => (j === undefined ? undefined : new TextEncoder().encode(JSON.stringify(j))))
    cache.meta.put(name, bytes === undefined ? "" : Buffer.from(bytes).toString("base64"))
    return bytes
  }

  const decode = <A>(what: string, bytes: Uint8Array, read: (r: BcsReader) => A): A => {
    try {
      const r = new BcsReader(bytes)
      const a = read(r)
      r.expectEnd()
      return a
    } catch (e) {
      throw new ForkSourceError(`the fork source answered ${what} with bytes that do not decode: ${String(e)}`)
    }
  }

  /** BcsBlock without its transactions: height, hash, timestamp, first and last version. */
  const blockAt = async (path: string): Promise<BlockInfo | undefined> => {
    const bytes = await cachedGet(path, true)
    if (bytes === undefined) return undefined
    const b = decode(path, bytes, (r) => {
      const height = r.u64()
      readHashValue(r)
      const timestampUsec = r.u64()
      const firstVersion = r.u64()
      const lastVersion = r.u64()
      if (r.optionTag()) {
        // with_transactions=false: the source sends None; skip whatever it sent.
        r.offset = r.bytes.length
      }
      return { height, timestampUsec, firstVersion, lastVersion }
    })
    if (b.firstVersion > pinned.version) return undefined
    const first = await onChain(b.firstVersion)
    const t = first?.transaction
    const epoch =
      t?._tag === "BlockMetadata" ? t.metadata.epoch : t?._tag === "BlockMetadataExt" ? t.metadata.metadata.epoch : 0n
    // A block continuing past V on the source ends at V on the fork.
    const lastVersion = b.lastVersion <= pinned.version ? b.lastVersion : pinned.version
    return { ...b, lastVersion, epoch }
  }

  const onChain = async (version: bigint): Promise<OnChainData | undefined> => {
    const path = `/transactions/by_version/${version}`
    const bytes = await cachedGet(path, true)
    if (bytes === undefined) return undefined
    return decode(path, bytes, (r) => {
      if (r.uleb128() !== 0) throw new Error("not a committed transaction")
      return readOnChainData(r)
    })
  }

  /** The source's JSON of the transaction (served as is: it renders exactly as there). */
  const jsonOf = async (version: bigint): Promise<{ text: string; vmStatus: string }> => {
    const bytes = await cachedGet(`/transactions/by_version/${version}`, false)
    if (bytes === undefined) throw new ForkSourceError(`the fork source has no JSON of transaction ${version}`)
    const text = new TextDecoder().decode(bytes)
    const json = JSON.parse(text) as { vm_status?: unknown }
    return { text, vmStatus: typeof json.vm_status === "string" ? json.vm_status : "" }
  }

  const committed = async (data: OnChainData): Promise<CommittedTransaction> => {
    const block = await blockByVersion(data.version)
    if (block === undefined) throw new ForkSourceError(`the fork source has no block holding version ${data.version}`)
    const json = await jsonOf(data.version)
    return {
      sourceJson: json.text,
      transaction: data.transaction,
      writeSet: data.writeSet,
      events: data.events,
      outcome: { gasUsed: data.info.gasUsed, status: data.info.status, vmStatus: json.vmStatus },
      version: data.version,
      hash: data.info.transactionHash,
      blockHeight: block.height,
      timestampUsec: block.timestampUsec,
      info: data.info,
      accumulatorRootHash: data.accumulatorRootHash
    }
  }

  // Blocks seen, by first version (a transaction's block is found without asking again).
  const blocks: BlockInfo[] = []
  const blockByVersion = async (version: bigint): Promise<BlockInfo | undefined> => {
    if (version > pinned.version) return undefined
    const known = blocks.find((b) => b.firstVersion <= version && version <= b.lastVersion)
    if (known !== undefined) return known
    const b = await blockAt(`/blocks/by_version/${version}?with_transactions=false`)
    if (b !== undefined && blocks.length < 10_000) blocks.push(b)
    return b
  }

  return {
    transactionByVersion: async (version) => {
      if (version > pinned.version) return undefined
      const data = await onChain(version)
      return data === undefined ? undefined : committed(data)
    },
    transactionByHash: async (hash) => {
      const path = `/transactions/by_hash/0x${Buffer.from(hash).toString("hex")}`
      if (client === undefined && cache.meta.get(`bcs ${path}`) === undefined) return undefined
      const bytes = await cachedGet(path, true)
      if (bytes === undefined || bytes[0] !== 0) return undefined
      const data = decode(path, bytes, (r) => {
        r.uleb128()
        return readOnChainData(r)
      })
      return data.version > pinned.version ? undefined : committed(data)
    },
    summariesBySender: async (sender, start, end, limit) => {
      const top = end < pinned.version ? end : pinned.version
      // Both pages are fixed once their end is at or below V (a source that ignores end_version when
      // start_version is given, as the reference does, is filtered here), so they are kept.
      const path = `/accounts/0x${Buffer.from(sender).toString("hex")}/transaction_summaries?${start === undefined ? "" : `start_version=${start}&`}end_version=${top}&limit=${limit}`
      const bytes = await cachedGet(path, true)
      if (bytes === undefined) return []
      const list = decode(path, bytes, (r) => {
        const n = r.uleb128()
        const out: TransactionSummary[] = []
        for (let i = 0; i < n; i++) out.push(readSummary(r))
        return out
      })
      return list.filter((x) => x.version <= top && (start === undefined || x.version >= start)).slice(0, limit)
    },
    accountTransactions: async (sender, start, limit) => {
      const path = `/accounts/0x${Buffer.from(sender).toString("hex")}/transactions?start=${start}&limit=${limit}`
      const bytes = await cachedGet(path, true)
      if (bytes === undefined) return []
      const list = decode(path, bytes, (r) => {
        const n = r.uleb128()
        const out: OnChainData[] = []
        for (let i = 0; i < n; i++) out.push(readOnChainData(r))
        return out
      })
      const out: CommittedTransaction[] = []
      for (const data of list) if (data.version <= pinned.version) out.push(await committed(data))
      return out
    },
    eventsByKey: async (address, creationNumber, start, limit) => {
      const page = async (from: bigint | undefined) => {
        const path = `/accounts/0x${Buffer.from(address).toString("hex")}/events/${creationNumber}?limit=${limit}${from === undefined ? "" : `&start=${from}`}`
        // A page without a start moves with the source: not kept.
        const bytes = from === undefined ? await client?.getBcs(path) : await cachedGet(path, true)
        if (bytes === undefined) return []
        return decode(path, bytes, (r) => {
          const n = r.uleb128()
          const out: VersionedEvent[] = []
          for (let i = 0; i < n; i++) {
            const version = r.u64()
            const event = readContractEvent(r)
            if (event._tag === "V1") out.push({ version, event })
          }
          return out
        })
      }
      const first = await page(start)
      const kept = first.filter((e) => e.version <= pinned.version)
      if (start !== undefined || kept.length === first.length || kept.length >= limit) return kept.slice(-limit)
      // The source's newest are later than V: the page just below the lowest of them.
      const lowest = first.reduce(
        (m, e) => (e.event.sequenceNumber < m ? e.event.sequenceNumber : m),
        first[0]!.event.sequenceNumber
      )
      const from = lowest > BigInt(limit) ? lowest - BigInt(limit) : 0n
      return (await page(from)).filter((e) => e.version <= pinned.version).slice(-limit)
    },
    blockByHeight: (height) =>
      height > pinned.height
        ? Promise.resolve(undefined)
        : blockAt(`/blocks/by_height/${height}?with_transactions=false`),
    blockByVersion
  }
}
