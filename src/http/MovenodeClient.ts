import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "./Api.js"

/**
 * The typed client derived from the Api definition: `client.accounts.balance({ params, query })`
 * and so on, with the same schemas the server documents. `baseUrl` is the server's origin
 * (`http://127.0.0.1:8080`); paths already start with `/v1`.
 */
export class MovenodeClient extends Context.Service<MovenodeClient, HttpApiClient.ForApi<typeof Api>>()(
  "movenode/http/MovenodeClient"
) {
  /** The client over `fetch`. */
  static readonly layer = (baseUrl: string): Layer.Layer<MovenodeClient> =>
    Layer.effect(MovenodeClient, HttpApiClient.make(Api, { baseUrl })).pipe(Layer.provide(FetchHttpClient.layer))

  /** The client over whatever `HttpClient` the caller provides. */
  static readonly layerWithoutHttpClient = (baseUrl: string) =>
    Layer.effect(MovenodeClient, HttpApiClient.make(Api, { baseUrl }))
}

/** Alias of `MovenodeClient.layer`. */
export const clientLayer = MovenodeClient.layer

