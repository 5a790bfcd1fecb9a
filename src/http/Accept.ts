/**
 * Content negotiation of the contract: JSON unless the Accept header names `application/x-bcs`
 * before `application/json`; anything else (absent, `*\/*`, `text/html`) is JSON; never 406.
 * Header order decides, as the reference's axum port does (q-values are not consulted).
 */
export const wantsBcs = (accept: string | undefined): boolean => {
  if (accept === undefined || (!accept.includes("x-bcs") && !/x-bcs/i.test(accept))) return false
  for (const part of accept.split(",")) {
    const semi = part.indexOf(";")
    const type = (semi < 0 ? part : part.slice(0, semi)).trim().toLowerCase()
    if (type === "application/x-bcs") return true
    if (type === "application/json") return false
  }
  return false
}
