/** fast-check arbitraries for the domain's BCS shapes (valid values only). */
import fc from "fast-check"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import type { AbortLocation, ExecutionStatus } from "../../src/domain/ExecutionStatus.js"
import type { TransactionInfo } from "../../src/domain/TransactionInfo.js"
import type { AccessPathKind, StateKey } from "../../src/domain/StateKey.js"
import type {
  BlockMetadata,
  BlockMetadataExt,
  EntryFunction,
  RawTransaction,
  Script,
  SignedTransaction,
  Transaction,
  TransactionArgument,
  TransactionPayload,
  ValidatorTransaction,
  WriteSetPayload
} from "../../src/domain/Transaction.js"
import type {
  AccountAuthenticator,
  AnyPublicKey,
  AnySignature,
  EphemeralSignature,
  TransactionAuthenticator,
  WebAuthnSignature
} from "../../src/domain/TransactionAuthenticator.js"
import {
  type FunctionParamTag,
  type ModuleId,
  PRIMITIVE_TYPE_NAMES,
  type StructTag,
  type TypeTag
} from "../../src/domain/TypeTag.js"
import type { StateValueMetadata, WriteOp, WriteSetEntry } from "../../src/domain/WriteSet.js"
import { makeWriteSetEntry, sortWriteSet } from "../../src/domain/WriteSetCodec.js"

export const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n })
export const anyBytes = fc.uint8Array({ maxLength: 40 })
export const address = bytes(32)
export const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })
export const u128 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n })
export const u256 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n })

export const identifier = fc.oneof(
  fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_$]{0,12}$/),
  fc.stringMatching(/^[_$][a-zA-Z0-9_$]{1,12}$/)
)

export const primitiveTypeTag = fc.constantFrom(...PRIMITIVE_TYPE_NAMES).map((t) => ({ _tag: t }) as TypeTag)

/** Type tags nested at most `depth` boxes deep (the BCS limit is 8). */
export const typeTag = (depth = 4, withFunctions = true): fc.Arbitrary<TypeTag> => {
  if (depth <= 0) return primitiveTypeTag
  const inner = typeTag(depth - 1, withFunctions)
  const options: fc.Arbitrary<TypeTag>[] = [
    primitiveTypeTag,
    inner.map((element) => ({ _tag: "vector", element }) as TypeTag),
    structTag(depth, withFunctions).map((struct) => ({ _tag: "struct", struct }) as TypeTag)
  ]
  if (withFunctions) {
    const param: fc.Arbitrary<FunctionParamTag> = fc.record({
      kind: fc.constantFrom("reference", "mutableReference", "value"),
      tag: inner
    })
    options.push(
      fc
        .record({
          args: fc.array(param, { maxLength: 2 }),
          results: fc.array(param, { maxLength: 2 }),
          abilities: fc.integer({ min: 0, max: 15 })
        })
        .map((f) => ({ _tag: "function", ...f }) as TypeTag)
    )
  }
  return fc.oneof({ depthSize: "small", withCrossShrink: true }, ...options)
}

/** A struct tag whose type arguments are at most `depth - 1` boxes deep. */
export const structTag = (depth = 3, withFunctions = true): fc.Arbitrary<StructTag> =>
  fc.record({
    address,
    module: identifier,
    name: identifier,
    typeArgs: depth <= 1 ? fc.constant([]) : fc.array(typeTag(depth - 1, withFunctions), { maxLength: 2 })
  })

export const moduleId: fc.Arbitrary<ModuleId> = fc.record({ address, name: identifier })

export const accessPath: fc.Arbitrary<AccessPathKind> = fc.oneof(
  moduleId.map((module) => ({ _tag: "Code", module }) as AccessPathKind),
  structTag(2).map((struct) => ({ _tag: "Resource", struct }) as AccessPathKind),
  structTag(2).map((struct) => ({ _tag: "ResourceGroup", struct }) as AccessPathKind)
)

export const stateKey: fc.Arbitrary<StateKey> = fc.oneof(
  fc.record({ address, path: accessPath }).map((x) => ({ _tag: "AccessPath", ...x }) as StateKey),
  fc.record({ handle: address, key: anyBytes }).map((x) => ({ _tag: "TableItem", ...x }) as StateKey),
  anyBytes.map((b) => ({ _tag: "Raw", bytes: b }) as StateKey)
)

export const stateValueMetadata: fc.Arbitrary<StateValueMetadata> = fc.oneof(
  fc.record({ deposit: u64, creationTimeUsecs: u64 }).map((x) => ({ _tag: "V0", ...x }) as StateValueMetadata),
  fc
    .record({ slotDeposit: u64, bytesDeposit: u64, creationTimeUsecs: u64 })
    .map((x) => ({ _tag: "V1", ...x }) as StateValueMetadata)
)

export const writeOp: fc.Arbitrary<WriteOp> = fc.oneof(
  anyBytes.map((data) => ({ _tag: "Creation", data }) as WriteOp),
  anyBytes.map((data) => ({ _tag: "Modification", data }) as WriteOp),
  fc.constant({ _tag: "Deletion" } as WriteOp),
  fc
    .record({ data: anyBytes, metadata: stateValueMetadata })
    .map((x) => ({ _tag: "CreationWithMetadata", ...x }) as WriteOp),
  fc
    .record({ data: anyBytes, metadata: stateValueMetadata })
    .map((x) => ({ _tag: "ModificationWithMetadata", ...x }) as WriteOp),
  stateValueMetadata.map((metadata) => ({ _tag: "DeletionWithMetadata", metadata }) as WriteOp)
)

export const writeSet = fc
  .uniqueArray(
    fc.tuple(stateKey, writeOp).map(([k, op]): WriteSetEntry => makeWriteSetEntry(k, op)),
    {
      maxLength: 5,
      selector: (e) => Buffer.from(e.keyBytes).toString("hex")
    }
  )
  .map((entries) => sortWriteSet({ entries }))

export const contractEvent: fc.Arbitrary<ContractEvent> = fc.oneof(
  fc
    .record({
      key: fc.record({ creationNumber: u64, accountAddress: address }),
      sequenceNumber: u64,
      typeTag: typeTag(3),
      data: anyBytes
    })
    .map((x) => ({ _tag: "V1", ...x }) as ContractEvent),
  fc.record({ typeTag: typeTag(3), data: anyBytes }).map((x) => ({ _tag: "V2", ...x }) as ContractEvent)
)

export const transactionArgument: fc.Arbitrary<TransactionArgument> = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map((value) => ({ _tag: "U8", value }) as TransactionArgument),
  u64.map((value) => ({ _tag: "U64", value }) as TransactionArgument),
  u128.map((value) => ({ _tag: "U128", value }) as TransactionArgument),
  address.map((value) => ({ _tag: "Address", value }) as TransactionArgument),
  anyBytes.map((value) => ({ _tag: "U8Vector", value }) as TransactionArgument),
  fc.boolean().map((value) => ({ _tag: "Bool", value }) as TransactionArgument),
  fc.integer({ min: 0, max: 0xffff }).map((value) => ({ _tag: "U16", value }) as TransactionArgument),
  fc.integer({ min: 0, max: 0xffffffff }).map((value) => ({ _tag: "U32", value }) as TransactionArgument),
  u256.map((value) => ({ _tag: "U256", value }) as TransactionArgument),
  anyBytes.map((value) => ({ _tag: "Serialized", value }) as TransactionArgument),
  fc.integer({ min: -128, max: 127 }).map((value) => ({ _tag: "I8", value }) as TransactionArgument),
  fc.integer({ min: -32768, max: 32767 }).map((value) => ({ _tag: "I16", value }) as TransactionArgument),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((value) => ({ _tag: "I32", value }) as TransactionArgument),
  fc
    .bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })
    .map((value) => ({ _tag: "I64", value }) as TransactionArgument),
  fc
    .bigInt({ min: -(1n << 127n), max: (1n << 127n) - 1n })
    .map((value) => ({ _tag: "I128", value }) as TransactionArgument),
  fc
    .bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n })
    .map((value) => ({ _tag: "I256", value }) as TransactionArgument)
)

export const script: fc.Arbitrary<Script> = fc.record({
  code: anyBytes,
  typeArgs: fc.array(typeTag(2), { maxLength: 2 }),
  args: fc.array(transactionArgument, { maxLength: 3 })
})

export const entryFunction: fc.Arbitrary<EntryFunction> = fc.record({
  module: moduleId,
  function: identifier,
  typeArgs: fc.array(typeTag(2), { maxLength: 2 }),
  args: fc.array(anyBytes, { maxLength: 3 })
})

export const payload: fc.Arbitrary<TransactionPayload> = fc.oneof(
  script.map((s) => ({ _tag: "Script", script: s }) as TransactionPayload),
  entryFunction.map((entryFunction) => ({ _tag: "EntryFunction", entryFunction }) as TransactionPayload),
  fc
    .record({ multisigAddress: address, entryFunction: fc.option(entryFunction, { nil: undefined }) })
    .map((x) => ({ _tag: "Multisig", ...x }) as TransactionPayload),
  fc
    .record({
      executable: fc.oneof(
        script.map((s) => ({ _tag: "Script", script: s }) as const),
        entryFunction.map((entryFunction) => ({ _tag: "EntryFunction", entryFunction }) as const),
        fc.constant({ _tag: "Empty" } as const)
      ),
      extraConfig: fc.record({
        multisigAddress: fc.option(address, { nil: undefined }),
        replayProtectionNonce: fc.option(u64, { nil: undefined })
      })
    })
    .map((x) => ({ _tag: "PayloadV1", ...x }) as TransactionPayload)
)

export const rawTransaction: fc.Arbitrary<RawTransaction> = fc.record({
  sender: address,
  sequenceNumber: u64,
  payload,
  maxGasAmount: u64,
  gasUnitPrice: u64,
  expirationTimestampSecs: u64,
  chainId: fc.integer({ min: 0, max: 255 })
})

const webAuthn: fc.Arbitrary<WebAuthnSignature> = fc.record({
  signature: bytes(64),
  authenticatorData: anyBytes,
  clientDataJson: anyBytes
})

const ephemeralSignature: fc.Arbitrary<EphemeralSignature> = fc.oneof(
  bytes(64).map((signature) => ({ _tag: "Ed25519", signature }) as EphemeralSignature),
  webAuthn.map((signature) => ({ _tag: "WebAuthn", signature }) as EphemeralSignature)
)

const keylessPublicKey = fc.record({ issVal: fc.string({ maxLength: 20 }), idc: anyBytes })

export const anyPublicKey: fc.Arbitrary<AnyPublicKey> = fc.oneof(
  bytes(32).map((publicKey) => ({ _tag: "Ed25519", publicKey }) as AnyPublicKey),
  bytes(65).map((publicKey) => ({ _tag: "Secp256k1Ecdsa", publicKey }) as AnyPublicKey),
  bytes(65).map((publicKey) => ({ _tag: "Secp256r1Ecdsa", publicKey }) as AnyPublicKey),
  keylessPublicKey.map((publicKey) => ({ _tag: "Keyless", publicKey }) as AnyPublicKey),
  fc
    .record({ jwkAddress: address, publicKey: keylessPublicKey })
    .map((x) => ({ _tag: "FederatedKeyless", ...x }) as AnyPublicKey),
  anyBytes.map((publicKey) => ({ _tag: "SlhDsaSha2_128s", publicKey }) as AnyPublicKey)
)

export const anySignature: fc.Arbitrary<AnySignature> = fc.oneof(
  bytes(64).map((signature) => ({ _tag: "Ed25519", signature }) as AnySignature),
  bytes(64).map((signature) => ({ _tag: "Secp256k1Ecdsa", signature }) as AnySignature),
  webAuthn.map((signature) => ({ _tag: "WebAuthn", signature }) as AnySignature),
  fc
    .record({
      certificate: fc.record({
        _tag: fc.constant("ZeroKnowledgeSig" as const),
        proof: fc.record({ a: bytes(32), b: bytes(64), c: bytes(32) }),
        expHorizonSecs: u64,
        extraField: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
        overrideAudVal: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
        trainingWheelsSignature: fc.option(ephemeralSignature, { nil: undefined })
      }),
      jwtHeaderJson: fc.string({ maxLength: 20 }),
      expDateSecs: u64,
      ephemeralPublicKey: fc.oneof(
        bytes(32).map((publicKey) => ({ _tag: "Ed25519", publicKey }) as const),
        bytes(65).map((publicKey) => ({ _tag: "Secp256r1Ecdsa", publicKey }) as const)
      ),
      ephemeralSignature
    })
    .map((signature) => ({ _tag: "Keyless", signature }) as AnySignature),
  anyBytes.map((signature) => ({ _tag: "SlhDsaSha2_128s", signature }) as AnySignature)
)

export const accountAuthenticator: fc.Arbitrary<AccountAuthenticator> = fc.oneof(
  fc
    .record({ publicKey: bytes(32), signature: bytes(64) })
    .map((x) => ({ _tag: "Ed25519", ...x }) as AccountAuthenticator),
  fc
    .record({ publicKey: anyBytes, signature: anyBytes })
    .map((x) => ({ _tag: "MultiEd25519", ...x }) as AccountAuthenticator),
  fc
    .record({ publicKey: anyPublicKey, signature: anySignature })
    .map((x) => ({ _tag: "SingleKey", ...x }) as AccountAuthenticator),
  fc
    .record({
      publicKeys: fc.array(anyPublicKey, { maxLength: 3 }),
      signaturesRequired: fc.integer({ min: 0, max: 255 }),
      signatures: fc.array(anySignature, { maxLength: 3 }),
      bitmap: bytes(4)
    })
    .map((x) => ({ _tag: "MultiKey", ...x }) as AccountAuthenticator),
  fc.constant({ _tag: "NoAccountAuthenticator" } as AccountAuthenticator),
  fc
    .record({
      functionInfo: fc.record({ moduleAddress: address, moduleName: identifier, functionName: identifier }),
      authData: fc.oneof(
        fc
          .record({ signingMessageDigest: anyBytes, authenticator: anyBytes })
          .map((x) => ({ _tag: "V1", ...x }) as const),
        fc
          .record({ signingMessageDigest: anyBytes, abstractSignature: anyBytes, abstractPublicKey: anyBytes })
          .map((x) => ({ _tag: "DerivableV1", ...x }) as const)
      )
    })
    .map((x) => ({ _tag: "Abstraction", ...x }) as AccountAuthenticator)
)

export const transactionAuthenticator: fc.Arbitrary<TransactionAuthenticator> = fc.oneof(
  fc
    .record({ publicKey: bytes(32), signature: bytes(64) })
    .map((x) => ({ _tag: "Ed25519", ...x }) as TransactionAuthenticator),
  fc
    .record({ publicKey: anyBytes, signature: anyBytes })
    .map((x) => ({ _tag: "MultiEd25519", ...x }) as TransactionAuthenticator),
  fc
    .record({
      sender: accountAuthenticator,
      secondarySignerAddresses: fc.array(address, { maxLength: 2 }),
      secondarySigners: fc.array(accountAuthenticator, { maxLength: 2 })
    })
    .map((x) => ({ _tag: "MultiAgent", ...x }) as TransactionAuthenticator),
  fc
    .record({
      sender: accountAuthenticator,
      secondarySignerAddresses: fc.array(address, { maxLength: 2 }),
      secondarySigners: fc.array(accountAuthenticator, { maxLength: 2 }),
      feePayerAddress: address,
      feePayerSigner: accountAuthenticator
    })
    .map((x) => ({ _tag: "FeePayer", ...x }) as TransactionAuthenticator),
  accountAuthenticator.map((sender) => ({ _tag: "SingleSender", sender }) as TransactionAuthenticator)
)

export const signedTransaction: fc.Arbitrary<SignedTransaction> = fc.record({
  rawTransaction,
  authenticator: transactionAuthenticator
})

export const blockMetadata: fc.Arbitrary<BlockMetadata> = fc.record({
  id: bytes(32),
  epoch: u64,
  round: u64,
  proposer: address,
  previousBlockVotesBitvec: anyBytes,
  failedProposerIndices: fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 3 }),
  timestampUsecs: u64
})

const randomness = fc.option(
  fc.record({ epoch: u64, round: u64, blockId: bytes(32), timestamp: u64, randomness: anyBytes }),
  { nil: undefined }
)

export const blockMetadataExt: fc.Arbitrary<BlockMetadataExt> = fc.oneof(
  blockMetadata.map((metadata) => ({ _tag: "V0", metadata }) as BlockMetadataExt),
  fc.record({ metadata: blockMetadata, randomness }).map((x) => ({ _tag: "V1", ...x }) as BlockMetadataExt),
  fc
    .record({
      metadata: blockMetadata,
      randomness,
      decryptionKey: fc.option(fc.record({ epoch: u64, round: u64, decryptionKey: anyBytes }), { nil: undefined })
    })
    .map((x) => ({ _tag: "V2", ...x }) as BlockMetadataExt),
  fc
    .record({ metadata: blockMetadata, featurePayloads: anyBytes, dkgNeeded: fc.array(fc.boolean(), { maxLength: 4 }) })
    .map((x) => ({ _tag: "V3", ...x }) as BlockMetadataExt)
)

export const validatorTransaction: fc.Arbitrary<ValidatorTransaction> = fc.oneof(
  fc
    .record({ epoch: u64, author: address, transcriptBytes: anyBytes })
    .map((x) => ({ _tag: "DKGResult", ...x }) as ValidatorTransaction),
  fc
    .record({
      issuer: anyBytes,
      version: u64,
      jwks: fc.array(fc.record({ typeName: fc.string({ maxLength: 20 }), data: anyBytes }), { maxLength: 2 }),
      validatorBitmask: anyBytes,
      signature: fc.option(bytes(96), { nil: undefined })
    })
    .map((x) => ({ _tag: "ObservedJWKUpdate", ...x }) as ValidatorTransaction)
)

const blockEndInfo = fc.record({
  blockGasLimitReached: fc.boolean(),
  blockOutputLimitReached: fc.boolean(),
  blockEffectiveBlockGasUnits: u64,
  blockApproxOutputSize: u64
})

export const writeSetPayload: fc.Arbitrary<WriteSetPayload> = fc.oneof(
  fc
    .record({ writeSet, events: fc.array(contractEvent, { maxLength: 3 }) })
    .map((changeSet) => ({ _tag: "Direct", changeSet }) as WriteSetPayload),
  fc.record({ executeAs: address, script }).map((x) => ({ _tag: "Script", ...x }) as WriteSetPayload)
)

export const transaction: fc.Arbitrary<Transaction> = fc.oneof(
  signedTransaction.map((signed) => ({ _tag: "UserTransaction", signed }) as Transaction),
  writeSetPayload.map((payload) => ({ _tag: "GenesisTransaction", payload }) as Transaction),
  blockMetadata.map((metadata) => ({ _tag: "BlockMetadata", metadata }) as Transaction),
  bytes(32).map((hash) => ({ _tag: "StateCheckpoint", hash }) as Transaction),
  validatorTransaction.map((transaction) => ({ _tag: "ValidatorTransaction", transaction }) as Transaction),
  blockMetadataExt.map((metadata) => ({ _tag: "BlockMetadataExt", metadata }) as Transaction),
  fc.record({ blockId: bytes(32), blockEndInfo }).map((x) => ({ _tag: "BlockEpilogue", ...x }) as Transaction),
  fc
    .record({
      blockId: bytes(32),
      blockEndInfo,
      feeDistribution: fc.array(
        fc.tuple(u64, u64).map(([a, b]) => [a, b] as const),
        { maxLength: 3 }
      )
    })
    .map((x) => ({ _tag: "BlockEpilogue", ...x }) as Transaction)
)

export const abortLocation: fc.Arbitrary<AbortLocation> = fc.oneof(
  moduleId.map((module) => ({ _tag: "Module", module }) as AbortLocation),
  fc.constant({ _tag: "Script" } as AbortLocation)
)

export const executionStatus: fc.Arbitrary<ExecutionStatus> = fc.oneof(
  fc.constant({ _tag: "Success" } as ExecutionStatus),
  fc.constant({ _tag: "OutOfGas" } as ExecutionStatus),
  fc
    .record({
      location: abortLocation,
      code: u64,
      info: fc.option(fc.record({ reasonName: fc.string(), description: fc.string() }), { nil: undefined })
    })
    .map((x) => ({ _tag: "MoveAbort", ...x }) as ExecutionStatus),
  fc
    .record({
      location: abortLocation,
      function: fc.integer({ min: 0, max: 0xffff }),
      codeOffset: fc.integer({ min: 0, max: 0xffff })
    })
    .map((x) => ({ _tag: "ExecutionFailure", ...x }) as ExecutionStatus),
  fc
    .option(u64, { nil: undefined })
    .map((statusCode) => ({ _tag: "MiscellaneousError", statusCode }) as ExecutionStatus)
)

export const transactionInfo: fc.Arbitrary<TransactionInfo> = fc.record({
  gasUsed: u64,
  status: executionStatus,
  transactionHash: bytes(32),
  eventRootHash: bytes(32),
  stateChangeHash: bytes(32),
  stateCheckpointHash: fc.option(bytes(32), { nil: undefined }),
  auxiliaryInfoHash: fc.option(bytes(32), { nil: undefined })
})
