/** The command-line framework (src/commandLine.ts) on any input: it answers, it never throws. */
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { commands } from "../src/cli.js"
import { parseArgs, resolveCommand } from "../src/commandLine.js"

const words = fc.oneof(
  fc.constantFrom("run", "module", "abi", "list", "help", "version", "--help", "-h", "--version", "-V", "--", "-", "="),
  fc.constantFrom("--genesis", "--data-dir", "--listen", "--quiet", "--no-cors", "--config", "--bogus", "--quiet=1"),
  fc.string({ maxLength: 12 })
)

describe("resolveCommand", () => {
  it("answers every argv with help, the version, a command or one usage error; never throws", () => {
    const table = commands(() => "{}")
    fc.assert(
      fc.property(fc.array(words, { maxLength: 8 }), (argv) => {
        const r = resolveCommand("movenode", "d", table, argv)
        if (Result.isFailure(r)) {
          expect(r.failure.message.length).toBeGreaterThan(0)
          expect(r.failure.message).not.toContain("\n")
        } else expect(["Help", "Version", "Command"]).toContain(r.success._tag)
      }),
      { numRuns: 2000 }
    )
  })

  it("`--` ends the options: what follows is an operand", () => {
    const spec = commands()[1]! // module abi
    expect(Result.getOrThrow(parseArgs(spec, ["--", "--help"])).operands).toEqual(["--help"])
    expect(resolveCommand("movenode", "d", commands(), ["module", "abi", "--", "-x.mv"])).toEqual(
      Result.succeed({ _tag: "Command", command: { _tag: "ModuleAbi", file: "-x.mv" } })
    )
  })
})
