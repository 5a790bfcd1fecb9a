import type { Socket } from "node:net"

/**
 * Stops a socket's descriptor from being read (libuv `uv_read_stop`), so that what the client sends
 * next stays in the kernel's buffer for whoever the descriptor is handed to. `socket.pause()` alone
 * stops the stream's events but lets it go on reading into its buffer, and whatever the sender's
 * handle reads once it is handed over is dropped (Node sets its `onread` to nothing). The stream's
 * own flag is kept in step (Node reads it to decide whether to start reading again).
 */
export const stopReading = (socket: Socket): void => {
  const handle = (socket as unknown as { _handle?: { reading?: boolean; readStop?: () => number } | null })._handle
  if (handle?.readStop === undefined) return
  handle.reading = false
  handle.readStop()
}

/** Starts a socket's descriptor reading again after `stopReading` (what `resume()` alone would not do then). */
export const startReading = (socket: Socket): void => {
  const handle = (socket as unknown as { _handle?: { reading?: boolean; readStart?: () => number } | null })._handle
  if (handle?.readStart === undefined || handle.reading === true) return
  handle.reading = true
  handle.readStart()
}
