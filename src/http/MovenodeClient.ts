import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Schema from "effect/Schema"
import type { Simplify } from "effect/Types"
import { FetchHttpClient, type HttpClient, type HttpClientError, type HttpClientResponse } from "effect/http"
import { HttpApi, HttpApiClient, type HttpApiEndpoint, type HttpApiGroup } from "effect/http-api"
import { Api } from "./Api.js"

/**
 * A non-2xx answer, as the typed client fails with it: the HTTP status, the contract's error body
 * fields (`message`, `error_code`, `vm_error_code`; `error_code` is undefined when the body was
 * not an error body, e.g. a proxy's page) and the body text (the first 64 KiB).
 */
export class MovenodeApiError extends Data.TaggedError("MovenodeApiError")<{
  readonly status: number
  readonly message: string
  readonly error_code: string | undefined
  readonly vm_error_code: number | null | undefined
  readonly body: string
}> {}

const BODY_KEPT = 64 * 1024

const apiErrorOf = (response: HttpClientResponse.HttpClientResponse) =>
  response.text.pipe(
    Effect.orElseSucceed(() => ""),
    Effect.flatMap((text) => {
      const body = text.length > BODY_KEPT ? text.slice(0, BODY_KEPT) : text
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = undefined
      }
      const o = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {}
      const isErrorBody = typeof o.message === "string" && typeof o.error_code === "string"
      return Effect.fail(
        new MovenodeApiError({
          status: response.status,
          message: isErrorBody ? (o.message as string) : `HTTP ${response.status}: ${body.slice(0, 200)}`,
          error_code: isErrorBody ? (o.error_code as string) : undefined,
          vm_error_code: isErrorBody ? (o.vm_error_code as number | null) : undefined,
          body
        })
      )
    })
  )

type Groups = typeof Api extends HttpApi.HttpApi<infer _Id, infer G> ? G : never

/** A request part: absent when the endpoint has none, optional when `{}` is a valid value of it. */
type Part<Key extends string, S extends Schema.Constraint, Optional extends boolean> = [S["Type"]] extends [never]
  ? {}
  : Optional extends true
    ? {} extends S["Type"]
      ? { readonly [K in Key]?: S["Type"] }
      : { readonly [K in Key]: S["Type"] }
    : { readonly [K in Key]: S["Type"] }

/** What a method takes: `params`, `query`, `headers`, `payload`; query and headers whose fields are all optional may be left out. */
export type MovenodeRequest<E extends HttpApiEndpoint.ConstraintRequest> = Simplify<
  Part<"params", E["~Params"], false> &
    Part<"query", E["~Query"], true> &
    Part<"headers", E["~Headers"], true> &
    Part<"payload", E["~Payload"], false>
>

/** One endpoint's method: the decoded success, or the status and body of any other answer. */
export type MovenodeMethod<E extends HttpApiEndpoint.ConstraintRequest> = (
  ...request: {} extends MovenodeRequest<E> ? [request?: MovenodeRequest<E>] : [request: MovenodeRequest<E>]
) => Effect.Effect<
  HttpApiClient.SuccessType<E["~Success"]>,
  MovenodeApiError | HttpClientError.HttpClientError | Schema.SchemaError
>

/** `client.<group>.<endpoint>(request)` for every endpoint of the Api. */
export type MovenodeClientShape = {
  readonly [G in Groups as HttpApiGroup.Identifier<G>]: {
    readonly [Id in keyof G["endpoints"]]: G["endpoints"][Id] extends HttpApiEndpoint.ConstraintRequest
      ? MovenodeMethod<G["endpoints"][Id]>
      : never
  }
}

type AnyMethod = (request?: Record<string, unknown>) => Effect.Effect<unknown, unknown>

/**
 * Wraps Effect's derived client, for every endpoint the Api has (nothing here names one): the
 * request's optional parts default to `{}`, and the response is decoded by the endpoint's success
 * schema when it is a 2xx, or becomes a `MovenodeApiError` carrying the status otherwise (Effect's
 * client would fail with the decoded body alone, without its status).
 */
export const makeMovenodeClient = (baseUrl: string | URL) =>
  Effect.gen(function* () {
    const raw = (yield* HttpApiClient.make(Api, { baseUrl })) as unknown as Record<string, Record<string, AnyMethod>>
    const client: Record<string, Record<string, AnyMethod>> = {}
    HttpApi.reflect(Api, {
      onGroup: ({ group }) => {
        client[group.identifier] = {}
      },
      onEndpoint: ({ group, endpoint }) => {
        const call = raw[group.identifier]![endpoint.identifier]!
        const decode = HttpApiClient.decodeResponse(Api, {
          group: group.identifier as never,
          endpoint: endpoint.identifier as never
        }) as (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<unknown, unknown>
        const defaults = {
          ...(endpoint.query === undefined ? {} : { query: {} }),
          ...(endpoint.headers === undefined ? {} : { headers: {} })
        }
        client[group.identifier]![endpoint.identifier] = (request) =>
          call({ ...defaults, ...request, responseMode: "response-only" }).pipe(
            Effect.flatMap((response) => {
              const r = response as HttpClientResponse.HttpClientResponse
              return r.status >= 200 && r.status < 300 ? decode(r) : apiErrorOf(r)
            })
          )
      }
    })
    return client as unknown as MovenodeClientShape
  })

/**
 * The typed client derived from the Api definition: `client.accounts.balance({ params })`,
 * `client.general.ledgerInfo()` and so on, with the same schemas the server documents. `baseUrl`
 * is the server's origin (`http://127.0.0.1:8080`); paths already start with `/v1`.
 */
export class MovenodeClient extends Context.Service<MovenodeClient, MovenodeClientShape>()(
  "movenode/http/MovenodeClient"
) {
  /** The client over `fetch`, as a value: `const client = yield* MovenodeClient.make(origin)`. */
  static readonly make = (baseUrl: string | URL): Effect.Effect<MovenodeClientShape> =>
    makeMovenodeClient(baseUrl).pipe(Effect.provide(FetchHttpClient.layer))

  /** The client over `fetch`. */
  static readonly layer = (baseUrl: string | URL): Layer.Layer<MovenodeClient> =>
    Layer.effect(MovenodeClient, makeMovenodeClient(baseUrl)).pipe(Layer.provide(FetchHttpClient.layer))

  /** The client over whatever `HttpClient` the caller provides. */
  static readonly layerWithoutHttpClient = (
    baseUrl: string | URL
  ): Layer.Layer<MovenodeClient, never, HttpClient.HttpClient> =>
    Layer.effect(MovenodeClient, makeMovenodeClient(baseUrl))
}

/** Alias of `MovenodeClient.layer`. */
export const clientLayer = MovenodeClient.layer
