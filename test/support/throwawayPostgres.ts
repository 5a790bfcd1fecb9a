/**
 * A throwaway PostgreSQL server for a test: Debian's binaries (`/usr/lib/postgresql/<v>/bin`),
 * a cluster in a temporary directory (trust auth, fsync off), 127.0.0.1 on a free port; stopped and
 * deleted by `stop`. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user
 * (`runuser`). `startPostgres` answers undefined, with the reason, where the binaries are absent.
 */
import { execFileSync, spawn } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createConnection, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface ThrowawayPostgres {
  readonly url: string
  readonly stop: () => Promise<void>
}

const binDir = (): string | undefined => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  for (const v of versions) if (existsSync(join(root, v, "bin", "initdb"))) return join(root, v, "bin")
  return undefined
}

/** Why the server cannot start here, or undefined when it can. */
export const postgresUnavailable = (): string | undefined => {
  if (binDir() === undefined) return "PostgreSQL's binaries (Debian's postgresql package) are not installed"
  if (process.getuid?.() === 0) {
    try {
      execFileSync("id", ["-u", "postgres"], { stdio: "pipe" })
    } catch {
      return "running as root and there is no postgres user to run PostgreSQL as"
    }
  }
  return undefined
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

export const startPostgres = async (): Promise<ThrowawayPostgres> => {
  const bin = binDir()!
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), "movenode-pg-"))
  const as = (command: string, args: ReadonlyArray<string>): [string, string[]] =>
    asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]] : [join(bin, command), [...args]]
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, "data")
  const [initCmd, initArgs] = as("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
  execFileSync(initCmd, initArgs, { stdio: "pipe" })
  const port = await freePort()
  const [cmd, args] = as("postgres", [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "full_page_writes=off"
  ])
  const child = spawn(cmd, args, { stdio: "ignore" })
  const deadline = Date.now() + 20_000
  while (!(await accepts(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL")
      rmSync(dir, { recursive: true, force: true })
      throw new Error("the throwaway PostgreSQL did not start")
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      const [stopCmd, stopArgs] = as("pg_ctl", ["-D", data, "stop", "-m", "immediate", "-s"])
      try {
        execFileSync(stopCmd, stopArgs, { stdio: "pipe" })
      } catch {
        child.kill("SIGKILL")
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
