/**
 * Test helpers that read Linux's /proc: a process's children, and whether a process still runs.
 * Elsewhere they find nothing (the tests that use them run on Linux only).
 */
import { readdirSync, readFileSync } from "node:fs"

/** The fields of /proc/PID/stat after the command's name (in parentheses, which may hold ") "). */
const statFields = (pid: number | string): string[] | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return undefined
  }
}

/** Whether `pid` runs: it exists and is not a zombie (exited, not yet reaped by its parent). */
export const alive = (pid: number): boolean => {
  const state = statFields(pid)?.[0]
  return state !== undefined && state !== "Z"
}

/** The pids whose parent is `parent` (none where there is no /proc). */
export const childrenOf = (parent: number): number[] => {
  if (process.platform !== "linux") return []
  return readdirSync("/proc").flatMap((entry) =>
    /^\d+$/.test(entry) && Number(statFields(entry)?.[1]) === parent ? [Number(entry)] : []
  )
}
