import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs"
import { join } from "node:path"

/**
 * One process per data directory. LMDB itself lets many processes open one environment (its lock
 * file serialises writers), but a node keeps the ledger head in memory: two nodes committing to one
 * store would each build on a head the other moved. So the writer takes `movenode.lock` in the
 * directory, holding its process id, created exclusively (`wx`); a second process gets a clear
 * error naming the holder. A lock left by a process that no longer runs (kill -9, power loss) is
 * taken over. The view workers of the holding process read the store without taking the lock.
 */

export const LOCK_FILE = "movenode.lock"

/** Paths locked by this process (a second open of one store in one process is refused too). */
const held = new Set<string>()

export class DataDirLocked extends Error {
  readonly _tag = "DataDirLocked"
}

/** Whether a process with this id runs (EPERM: it does, under another user). */
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

const holderOf = (file: string): number | undefined => {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8").trim(), 10)
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/**
 * Takes the directory's lock (creating the directory when missing); returns its release. Throws
 * `DataDirLocked` when another running process (or this one) holds it.
 */
export const lockDataDir = (dir: string): (() => void) => {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, LOCK_FILE)
  if (held.has(file)) throw new DataDirLocked(`the data directory ${dir} is already open in this process`)
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, "wx")
      try {
        writeSync(fd, `${process.pid}\n`)
      } finally {
        closeSync(fd)
      }
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw e
      const pid = holderOf(file)
      if (pid !== undefined && pid !== process.pid && isRunning(pid))
        throw new DataDirLocked(
          `the data directory ${dir} is in use by another process (pid ${pid}); stop it first, or remove ${file} if no movenode runs there`
        )
      // A lock left behind by a process that is gone (or by this process id reused): take it over.
      try {
        unlinkSync(file)
      } catch {}
    }
  }
  held.add(file)
  return () => {
    if (!held.delete(file)) return
    if (holderOf(file) === process.pid)
      try {
        unlinkSync(file)
      } catch {}
  }
}
