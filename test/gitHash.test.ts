import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "vitest"
import { packageRootOf, readGitHash } from "../src/gitHash.js"

const root = mkdtempSync(join(tmpdir(), "movenode-githash-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const A = "0123456789abcdef0123456789abcdef01234567"
const B = "89abcdef0123456789abcdef0123456789abcdef"

/** A checkout whose `.git` holds `files` (path → content). */
const checkout = (name: string, files: Record<string, string>): string => {
  const dir = join(root, name)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, ".git", path, ".."), { recursive: true })
    writeFileSync(join(dir, ".git", path), content)
  }
  return dir
}

describe("readGitHash", () => {
  it("reads a detached HEAD, a loose ref and a packed ref", () => {
    assert.strictEqual(readGitHash(checkout("detached", { HEAD: `${A}\n` })), A)
    assert.strictEqual(
      readGitHash(checkout("loose", { HEAD: "ref: refs/heads/main\n", "refs/heads/main": `${B}\n` })),
      B
    )
    assert.strictEqual(
      readGitHash(
        checkout("packed", {
          HEAD: "ref: refs/heads/main\n",
          "packed-refs": `# pack-refs\n${A} refs/heads/dev\n${B} refs/heads/main\n`
        })
      ),
      B
    )
  })

  it("follows a linked worktree's .git file to its HEAD and the main checkout's refs", () => {
    const main = checkout("main", {
      HEAD: "ref: refs/heads/main\n",
      "refs/heads/main": `${A}\n`,
      "packed-refs": `${B} refs/heads/feature\n`,
      "worktrees/wt/HEAD": "ref: refs/heads/feature\n",
      "worktrees/wt/commondir": "../..\n"
    })
    const wt = join(root, "wt")
    mkdirSync(wt)
    writeFileSync(join(wt, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`)
    assert.strictEqual(readGitHash(wt), B)
    assert.strictEqual(readGitHash(main), A)
    const relative = join(root, "wt-relative")
    mkdirSync(relative)
    writeFileSync(join(relative, ".git"), "gitdir: ../main/.git/worktrees/wt\n")
    assert.strictEqual(readGitHash(relative), B)
  })

  it("is undefined outside a checkout and for anything malformed", () => {
    assert.isUndefined(readGitHash(join(root, "nothing-here")))
    assert.isUndefined(readGitHash(checkout("garbage", { HEAD: "hello\n" })))
    assert.isUndefined(readGitHash(checkout("escape", { HEAD: "ref: refs/../../etc/passwd\n" })))
    assert.isUndefined(readGitHash(checkout("dangling", { HEAD: "ref: refs/heads/gone\n" })))
    assert.isUndefined(readGitHash(checkout("short", { HEAD: "ref: refs/heads/x\n", "refs/heads/x": "abc\n" })))
  })
})

describe("packageRootOf", () => {
  it("finds the nearest package.json with the name, from any depth below it", () => {
    const pkg = join(root, "pkg")
    mkdirSync(join(pkg, "dist", "bin"), { recursive: true })
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "movenode" }))
    // A package.json of another name (or an unreadable one) on the way up is passed over.
    writeFileSync(join(pkg, "dist", "package.json"), JSON.stringify({ name: "other" }))
    writeFileSync(join(pkg, "dist", "bin", "package.json"), "{ not json")
    assert.strictEqual(packageRootOf(join(pkg, "dist", "bin"), "movenode"), pkg)
    assert.strictEqual(packageRootOf(join(pkg, "dist"), "movenode"), pkg)
    assert.strictEqual(packageRootOf(pkg, "movenode"), pkg)
    assert.isUndefined(packageRootOf(join(pkg, "dist", "bin"), "movenode", 1))
    assert.isUndefined(packageRootOf(join(pkg, "dist", "bin"), "absent"))
  })
})
