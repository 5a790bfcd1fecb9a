/**
 * The front process: the API's and the readiness server's listening sockets held by a small child
 * process, which accepts and reads each new connection's first request and hands the connection to
 * the node's process (descriptor and bytes), and answers the readiness server itself, so that a new
 * connection never waits for the node's busy event loop to accept and read it.
 *
 *   protocol.ts        the messages over the child's IPC channel
 *   requestHead.ts     the head of a request, read only as far as the readiness answers need
 *   stopReading.ts     a socket's descriptor stopped (and started) reading, to hand it over intact
 *   frontMain.ts    the child's program
 *   FrontProcess.ts    the service: starts (and restarts) the child, serves the API and readiness through it
 */
export * from "./FrontProcess.js"
export type { FrontSiteOptions, ReadinessState } from "./protocol.js"
