import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { Api } from "./Api.js"
import { ControlsApi } from "./controls/ControlsApi.js"

type GroupsOf<A> = A extends HttpApi.HttpApi<string, infer G> ? G : never
type IdsOf<G extends HttpApiGroup.Constraint> = {
  [K in HttpApiGroup.Identifier<G>]: `${K}.${HttpApiGroup.EndpointsWithIdentifier<G, K>["identifier"]}`
}[HttpApiGroup.Identifier<G>]

/**
 * `"<group>.<endpoint>"` for every endpoint the server serves, as a type (handlers are keyed by
 * it): the Aptos API's and the test controls' (`ControlsApi`, a separate document).
 */
export type RouteId = IdsOf<GroupsOf<typeof Api>> | IdsOf<GroupsOf<typeof ControlsApi>>

/** A literal segment has `literal`; a parameter has `param` (and `literal` undefined). One shape, so the router's check stays monomorphic. */
type Segment =
  | { readonly literal: string; readonly param: undefined }
  | { readonly literal: undefined; readonly param: string }

export interface Route {
  readonly id: RouteId
  readonly method: string
  /** As declared (`/v1/accounts/:address/module/:module_name`). */
  readonly path: string
  readonly segments: ReadonlyArray<Segment>
}

const compile = (path: string): ReadonlyArray<Segment> =>
  path
    .split("/")
    .slice(1)
    .map(
      (s): Segment => (s.startsWith(":") ? { literal: undefined, param: s.slice(1) } : { literal: s, param: undefined })
    )

const routesOf = (api: typeof Api | typeof ControlsApi): ReadonlyArray<Route> => {
  const out: Array<Route> = []
  HttpApi.reflect(api as typeof Api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint }) => {
      out.push({
        id: `${group.identifier}.${endpoint.identifier}` as RouteId,
        method: endpoint.method,
        path: endpoint.path,
        segments: compile(endpoint.path)
      })
    }
  })
  return out
}

/** The Aptos API's route table, read from the Api definition (so it cannot drift from `/v1/spec.json`). */
export const apiRoutes: ReadonlyArray<Route> = routesOf(Api)

/** The test controls' routes (`/__movenode/v1/…`, `ControlsApi`, documented at `/__movenode/v1/spec.json`). */
export const controlsRoutes: ReadonlyArray<Route> = routesOf(ControlsApi)

/** Every route the server serves. */
export const servedRoutes: ReadonlyArray<Route> = [...apiRoutes, ...controlsRoutes]

export type RouteMatch =
  | { readonly _tag: "Found"; readonly route: Route; readonly params: Record<string, string> }
  | { readonly _tag: "MethodNotAllowed"; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: "NotFound" }

const NOT_FOUND: RouteMatch = { _tag: "NotFound" }
/** Paths longer than this are not split at all (no route has more segments). */
const MAX_PATH_LENGTH = 8192

/** Matches `(method, path)` against the routes; params are the raw (still percent-encoded) segments. */
export const makeRouter = (routes: ReadonlyArray<Route>) => {
  const maxSegments = Math.max(...routes.map((r) => r.segments.length))
  // Routes by segment count: a path is only compared with the routes of its length.
  const byLength: Array<Array<Route>> = Array.from({ length: maxSegments + 1 }, () => [])
  for (const r of routes) byLength[r.segments.length]!.push(r)
  return (method: string, pathname: string): RouteMatch => {
    if (pathname.length > MAX_PATH_LENGTH || pathname.charCodeAt(0) !== 47) return NOT_FOUND
    if (pathname.length > 1 && pathname.endsWith("/")) pathname = pathname.slice(0, -1)
    // parts[0] is the empty text before the leading "/": segment i is parts[i + 1].
    const parts = pathname.split("/", maxSegments + 2)
    const length = parts.length - 1
    if (length > maxSegments) return NOT_FOUND
    let allow: Array<string> | undefined
    for (const route of byLength[length]!) {
      let params: Record<string, string> | undefined
      let ok = true
      for (let i = 0; i < length; i++) {
        const seg = route.segments[i]!
        const part = parts[i + 1]!
        if (seg.literal !== undefined) {
          if (seg.literal !== part) {
            ok = false
            break
          }
        } else {
          if (part === "") {
            ok = false
            break
          }
          ;(params ??= {})[seg.param] = part
        }
      }
      if (!ok) continue
      if (route.method === method || (method === "HEAD" && route.method === "GET"))
        return { _tag: "Found", route, params: params ?? {} }
      ;(allow ??= []).push(route.method)
    }
    return allow === undefined ? NOT_FOUND : { _tag: "MethodNotAllowed", allow }
  }
}
