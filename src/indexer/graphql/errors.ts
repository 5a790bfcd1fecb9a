/**
 * GraphQL errors as Hasura returns them: HTTP 200 with
 * `{"errors":[{"message":…,"extensions":{"path":"$…","code":"validation-failed"}}]}`. Codes used:
 * `validation-failed` (the document or its values), `parse-failed` (the request body is not a GraphQL
 * request), `unexpected` (the store failed), `data-exception` (a value the store refused).
 */
export type HasuraCode = "validation-failed" | "parse-failed" | "unexpected" | "data-exception" | "not-supported"

export class HasuraError extends Error {
  constructor(
    message: string,
    readonly code: HasuraCode = "validation-failed",
    readonly path: string = "$"
  ) {
    super(message)
  }
}

export const errorBody = (errors: ReadonlyArray<HasuraError>) => ({
  errors: errors.map((e) => ({ message: e.message, extensions: { path: e.path, code: e.code } }))
})

/**
 * graphql-js' validation messages in Hasura's words where the SDK's and the Explorer's users meet
 * them (unknown fields and arguments); others are kept as graphql-js writes them.
 */
export const hasuraMessage = (message: string): string => {
  const field = /^Cannot query field "([^"]+)" on type "([^"]+)"\./.exec(message)
  if (field !== null) return `field '${field[1]}' not found in type: '${field[2]}'`
  const argument = /^Unknown argument "([^"]+)" on field "[^".]+\.([^"]+)"\./.exec(message)
  if (argument !== null) return `'${argument[2]}' has no argument named '${argument[1]}'`
  const input = /^Field "([^"]+)" is not defined by type "([^"]+)"\./.exec(message)
  if (input !== null) return `field '${input[1]}' not found in type: '${input[2]}'`
  return message
}
