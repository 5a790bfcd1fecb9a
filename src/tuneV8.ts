import { setFlagsFromString } from "node:v8"

/**
 * V8 settings for a long-running node, applied by `movenode run` before it serves (process-wide,
 * so view worker threads get them too); programs embedding the node may call it at start-up.
 * Measurements behind each are in docs/benchmarks.md ("Memory").
 *
 * `--no-allocation-site-pretenuring`: V8 marks an allocation site "long-lived" when most of its
 * objects survive a scavenge (the module loading of the first views does exactly that) and from
 * then on allocates that site's objects straight in old space. A view's values and sessions come
 * from those same sites but die within the request, so the old generation filled with garbage at
 * ~1 MB per scavenge, grew resident memory by ~10 MB/s under view load and needed mark-compacts.
 * Measured on coin::balance: old space flat instead of growing, scavenges 0.7–1.0 ms instead of
 * 1.5, the call ~20 % faster.
 *
 * `--heap-growing-percent=25`: after a full collection V8 lets the old generation grow to up to
 * 4 times what survived before collecting again. The event loop's live set is ~20 MB, and under
 * view load incremental marking promotes in-flight requests into old space, so the heuristic let
 * that garbage reach ~80 MB before a collection. 1.25 times the live set (V8 still adds its
 * minimum step of a few MB) keeps the old generation near what is live.
 *
 * `--max-semi-space-size=0`: the young generation of the main thread is set on the command line
 * (`--max-semi-space-size=8`, added by the `movenode` launcher src/bin.ts and given by `npm start`: 16 MB instead of 32 MB of
 * young space that every request touches). The command-line value would also override the young
 * generation limit each view worker is started with (`DEFAULT_VIEW_WORKER_LIMITS`), so it is
 * cleared here, after the main heap was sized and before any worker starts.
 *
 * `oldGenerationGrowthPercent` (the local chain, `movenode` / `npm start`: 200) bounds it at three
 * times the live set instead. A local chain under load holds its pool (~1,000 transactions waiting)
 * and its blocks in flight through scavenges, into old space where they die; at 1.25 times the live
 * set it made 2,229–2,382 transfers/s at 0.63–0.68 ms of CPU each, at twice 2,663–2,708/s at
 * 0.56–0.57 ms, unbounded 2,439–2,835/s (session 10, docs/benchmarks.md, interleaved; resident
 * memory under that load ~335, ~390 and ~500 MB). Three times (session 56): the event loop's and
 * the index worker's mark-compacts about halved, 4–10 % less CPU per transfer than at twice in six
 * of seven interleaved pairs, for ~70 MB more resident memory at full load (450 → 510–530 MB);
 * four times gave nothing more.
 *
 * `boundOldGeneration: false` (`movenode follow`) leaves the old generation's growth to V8. A
 * follower catching up holds hundreds of decoded versions in flight (fetched, being checked, being
 * committed), which live through scavenges into old space and die there; bounded at 1.25 times the
 * live set, a mark-compact ran about every 0.6 s, 25–30 µs of the GC threads' CPU per version
 * applied (~10 % of a follower's CPU; session 9, docs/scale-out.md).
 */
export const tuneV8ForServing = (
  options: { readonly boundOldGeneration?: boolean; readonly oldGenerationGrowthPercent?: number } = {}
): void => {
  setFlagsFromString("--no-allocation-site-pretenuring")
  if (options.boundOldGeneration !== false)
    setFlagsFromString(`--heap-growing-percent=${options.oldGenerationGrowthPercent ?? 25}`)
  setFlagsFromString("--max-semi-space-size=0")
}
