/**
 * Entry point of the mempool's admission worker thread (started by `AdmissionThread`). It opens
 * the chain's LMDB store to read (lmdb-js shares one environment between the threads of a process;
 * the chain's thread holds the data directory's lock and is the only writer), keeps a VM of its
 * own, and validates each submission as the chain's thread would (`ChainVm.validate`: the
 * signature, the gas checks and the prologue on the latest committed state). The chain's thread
 * keeps what must be decided in one place: the sequence-number check against the latest state, the
 * test controls' impersonation, and the pool.
 */
import { parentPort, workerData } from "node:worker_threads"
import { BcsReader } from "../../bcs/index.js"
import { readSignedTransaction } from "../../domain/PayloadCodec.js"
import { verifyStrictFastUnremembered } from "../../domain/ed25519Fast.js"
import { ed25519SignerOf } from "../../execution/signatures/ed25519Signer.js"
import { rawTransactionSubject } from "../../execution/signatures/SigningSubject.js"
import { ed25519VerifiedCheck, type SignatureCheck } from "../../execution/verifySignature.js"
import { openLmdbBackend } from "../../ledger/LmdbBackend.js"
import { stateReaderAt } from "../../ledger/stateReaderAt.js"
import { MoveVm } from "../../move/vm/MoveVm.js"
import { stateViewFromReader } from "../../move/vm/StateView.js"
import { makeChainVm } from "../ChainVmLive.js"
import {
  ADMISSION_WORKER_CLOSE,
  ADMISSION_WORKER_READY,
  type AdmissionBatch,
  type AdmissionVerdicts,
  type AdmissionWorkerData,
  UNDECIDED,
  VALID
} from "./admissionWorkerProtocol.js"

const port = parentPort
if (port === null) throw new Error("admissionWorker.js runs only as a worker thread")
const data = workerData as AdmissionWorkerData
// The node that started this worker holds the directory's lock; its workers only read.
const backend = openLmdbBackend({ path: data.path, lock: false })
const vm = makeChainVm(new MoveVm())

port.on("message", (batch: AdmissionBatch | typeof ADMISSION_WORKER_CLOSE) => {
  if (batch === ADMISSION_WORKER_CLOSE) {
    // A read-only store: nothing in flight to wait for.
    void Promise.resolve(backend.close()).catch(() => undefined)
    port.close()
    return
  }
  // Blocks were committed (or the ledger rewound) since the last batch: read the newest snapshot.
  backend.refreshReads?.()
  const view = stateViewFromReader(stateReaderAt(backend, batch.version), batch.version)
  const n = batch.ends.length
  const status = new Int32Array(n)
  const verified = new Uint8Array(n)
  let start = 0
  for (let i = 0; i < n; i++) {
    const end = batch.ends[i]!
    try {
      const txn = readSignedTransaction(new BcsReader(batch.bytes.subarray(start, end)))
      // The signature first, on its own, to report it; validation is then given it checked.
      const signer = ed25519SignerOf(txn)
      let check: SignatureCheck | undefined
      if (
        signer !== undefined &&
        verifyStrictFastUnremembered(
          signer.signature,
          signer.publicKey,
          rawTransactionSubject(txn.rawTransaction).message
        )
      ) {
        verified[i] = 1
        check = ed25519VerifiedCheck(txn)
      }
      const verdict = vm.validate(view, txn, check)
      status[i] = verdict._tag === "Valid" ? VALID : Number(verdict.status.code)
    } catch {
      // A defect here (the chain's thread decoded these bytes already): its own validation decides.
      status[i] = UNDECIDED
    }
    start = end
  }
  const reply: AdmissionVerdicts = { id: batch.id, status, verified }
  // Copied, not transferred: a detached buffer would cost this isolate's compiled typed-array code
  // its fast path (AdmissionThread.flush).
  port.postMessage(reply)
})
port.postMessage(ADMISSION_WORKER_READY)
