import { setFlagsFromString } from "node:v8"

/**
 * V8 settings for a long-running node, applied by `movenode run` before it serves (process-wide,
 * so view worker threads get them too); programs embedding the node may call it at start-up.
 *
 * `--no-allocation-site-pretenuring`: V8 marks an allocation site "long-lived" when most of its
 * objects survive a scavenge (the module loading of the first views does exactly that) and from
 * then on allocates that site's objects straight in old space. A view's values and sessions come
 * from those same sites but die within the request, so the old generation filled with garbage at
 * ~1 MB per scavenge, grew resident memory by ~10 MB/s under view load and needed mark-compacts.
 * Measured on coin::balance: old space flat instead of growing, scavenges 0.7–1.0 ms instead of
 * 1.5, the call ~20 % faster (docs/benchmarks.md, "Memory").
 */
export const tuneV8ForServing = (): void => {
  setFlagsFromString("--no-allocation-site-pretenuring")
}
