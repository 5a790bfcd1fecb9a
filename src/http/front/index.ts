/**
 * The front process (the local chain's default; `--no-front` turns it off): the API's and the
 * readiness server's listening sockets held by a small child process, which accepts each new
 * connection and reads its requests, answers those that read committed state itself from the node's
 * store, hands the connection to the node's process (descriptor and bytes) at its first other
 * request, and answers the readiness server itself — so that no probe or read waits for the node's
 * busy event loop to accept, read or answer it.
 *
 *   protocol.ts        the messages over the child's IPC channel
 *   requestHead.ts     the head of a request, read only as far as the front needs
 *   stopReading.ts     a socket's descriptor stopped (and started) reading, to hand it over intact
 *   frontReads.ts      the API's request listener over a read-only node, in the child (loaded on the first read)
 *   frontMain.ts       the child's program
 *   FrontProcess.ts    the service: starts (and restarts) the child, serves the API and readiness through it
 */
export * from "./FrontProcess.js"
export type { FrontSiteOptions, ReadinessState } from "./protocol.js"
