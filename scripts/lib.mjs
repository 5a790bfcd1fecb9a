/**
 * What the scripts share (each script's own header says what it measures or checks):
 *
 *   root, loadDist()          the repository and its built library (`npm run build` first)
 *   cliArgs(argv?)            `--name value` options: `arg` (string), `num` (number), `has` (a flag)
 *   sleep(ms), freePort()
 *   spawnMovenode(args, options?)
 *                             the built `movenode` as a child process, resolved once its banner
 *                             names the API (and the GraphQL endpoint, when asked for)
 *   localSigners(lib, n)      the local chain's first n pre-funded accounts (the derivation behind
 *                             `--accounts`), signing with node:crypto's Ed25519 (tens of µs a
 *                             signature, so a generator takes little of the CPU it shares with the node)
 *   aptTransfer(lib, from, to, amount, expiration, options?)
 *                             a signed `0x1::aptos_account::transfer` from a signer (its `next`
 *                             sequence number, then advanced): the BCS bytes and the hash
 *
 * Scripts run on the built bundle rather than the sources so that they measure what `npm start` runs.
 */
import { spawn } from "node:child_process"
import { createPrivateKey, sign as nodeSign } from "node:crypto"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { ed25519 } from "@noble/curves/ed25519.js"

export const root = join(dirname(fileURLToPath(import.meta.url)), "..")

let dist
/** The built library (`dist/index.js`), loaded once. */
export const loadDist = () => (dist ??= import(pathToFileURL(join(root, "dist", "index.js")).href))

/** `--name value` options of a command line (`process.argv.slice(2)` by default). */
export const cliArgs = (argv = process.argv.slice(2)) => {
  const at = (name) => argv.indexOf(`--${name}`)
  return {
    argv,
    arg: (name, fallback) => (at(name) < 0 ? fallback : argv[at(name) + 1]),
    num: (name, fallback) => (at(name) < 0 ? fallback : Number(argv[at(name) + 1])),
    has: (name) => at(name) >= 0
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** A free port (bound once, released), for a node that has to be told its port before it starts. */
export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/**
 * Starts `node dist/bin/movenode.js ...args` (stdout and stderr piped) and resolves with the child
 * once its banner has printed the API's URL (`child.api`, ending in `/v1`) and, with
 * `{ graphql: true }`, the GraphQL endpoint's (`child.graphql`); rejects with its stderr if it exits
 * first. `nodeArgs` go to Node itself (e.g. `--cpu-prof`).
 */
export const spawnMovenode = (args, { graphql = false, env = process.env, nodeArgs = [] } = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, join(root, "dist", "bin", "movenode.js"), ...args], { stdio: ["ignore", "pipe", "pipe"], env })
    let out = ""
    let err = ""
    child.stderr.on("data", (d) => (err = (err + d).slice(-4000)))
    child.stdout.on("data", (d) => {
      if (child.api !== undefined) return
      out += d
      const api = /API\s+(http:\/\/\S+\/v1)/.exec(out)
      const gql = /GraphQL\s+(http:\/\/\S+\/v1\/graphql)/.exec(out)
      if (api !== null && (!graphql || gql !== null)) {
        child.graphql = gql?.[1]
        child.api = api[1]
        resolve(child)
      }
    })
    child.on("exit", (code, signal) => {
      if (child.api === undefined) reject(new Error(`movenode exited (${code ?? signal}) before listening: ${err.slice(0, 2000)}`))
    })
  })

const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex")

/** A signer over an Ed25519 private key: `{ address, publicKey, privateKey, sign, next }`. */
export const signerOf = ({ address, privateKey }) => {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, privateKey]), format: "der", type: "pkcs8" })
  return { address, privateKey, publicKey: ed25519.getPublicKey(privateKey), sign: (m) => new Uint8Array(nodeSign(null, m, key)), next: 0n }
}

/** The local chain's first `n` pre-funded accounts as signers (sequence numbers from 0). */
export const localSigners = (lib, n) => lib.localKeys({ ...lib.defaultLocalChainConfig, accounts: n }).accounts.map(signerOf)

/**
 * A signed APT transfer of `amount` octas from `from` (at `sequenceNumber`, default `from.next++`)
 * to the address `to`, expiring at `expiration` (seconds, bigint): `{ raw, bytes, hash }`, the hash
 * as `0x…` hex.
 */
export const aptTransfer = (lib, from, to, amount, expiration, { sequenceNumber, chainId = 4, maxGasAmount = 20_000n, gasUnitPrice = 100n } = {}) => {
  const { Bcs, signingMessage, signedTransactionCodec, addressFromNumber, toHex, transactionHashOfBytes } = lib
  const raw = {
    sender: from.address,
    sequenceNumber: sequenceNumber ?? from.next++,
    payload: {
      _tag: "EntryFunction",
      entryFunction: { module: { address: addressFromNumber(1), name: "aptos_account" }, function: "transfer", typeArgs: [], args: [to, Bcs.encode(Bcs.u64, BigInt(amount))] }
    },
    maxGasAmount,
    gasUnitPrice,
    expirationTimestampSecs: expiration,
    chainId
  }
  const bytes = Bcs.encode(signedTransactionCodec, {
    rawTransaction: raw,
    authenticator: { _tag: "Ed25519", publicKey: from.publicKey, signature: from.sign(signingMessage(raw)) }
  })
  // The transaction's hash covers the `Transaction::UserTransaction` variant tag (0) before the bytes.
  const tagged = new Uint8Array(bytes.length + 1)
  tagged.set(bytes, 1)
  return { raw, bytes, hash: `0x${toHex(transactionHashOfBytes(tagged))}` }
}
