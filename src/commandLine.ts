/**
 * A small command-line framework for the `movenode` command: a table of commands (`CommandSpec`),
 * each with the words that select it, its flags and its parser; from the table come the argument
 * parsing, `--help` on every command and group, `help [command]`, `--version`, and errors that
 * name the command once (`movenode run: --listen: expected ADDR:PORT …`). Pure: nothing here
 * reads files or writes output.
 */
import * as Result from "effect/Result"

export interface FlagSpec {
  /** `--data-dir` */
  readonly name: string
  /** The value's placeholder (`DIR`); absent for a switch (`--quiet`). */
  readonly value?: string | undefined
  readonly description: string
}

/** The arguments of one command, split by its flags. */
export interface ParsedArgs {
  /** `--name value` and `--name=value`, each flag at most once. */
  readonly values: ReadonlyMap<string, string>
  readonly switches: ReadonlySet<string>
  readonly operands: ReadonlyArray<string>
}

export interface CommandSpec<C> {
  /** The words that select it (`["run"]`, `["module", "abi"]`); `[]` is the command run when none is named. */
  readonly path: ReadonlyArray<string>
  readonly summary: string
  /** Operands in the synopsis (`FILE.mv`); absent when it takes none. */
  readonly operands?: string | undefined
  /** How many operands it takes (default: none). */
  readonly operandCount?: { readonly min: number; readonly max: number } | undefined
  readonly flags: ReadonlyArray<FlagSpec>
  /** Text after the flags: defaults, the config file, examples. */
  readonly details?: string | undefined
  readonly parse: (args: ParsedArgs) => Result.Result<C, string>
}

/** What the command line asks for. */
export type Resolved<C> =
  | { readonly _tag: "Help"; readonly text: string }
  | { readonly _tag: "Version" }
  | { readonly _tag: "Command"; readonly command: C }

/** A usage error: the command it concerns (words, possibly none) and one line saying what is wrong. */
export interface UsageError {
  readonly path: ReadonlyArray<string>
  readonly message: string
}

const HELP = new Set(["--help", "-h"])
const VERSION = new Set(["--version", "-V"])

const sameStart = (path: ReadonlyArray<string>, argv: ReadonlyArray<string>) => path.every((w, i) => argv[i] === w)

/** Splits `args` by `spec`'s flags; unknown flags, missing values and repeats are errors. */
export const parseArgs = (
  spec: CommandSpec<unknown>,
  args: ReadonlyArray<string>
): Result.Result<ParsedArgs, string> => {
  const byName = new Map(spec.flags.map((f) => [f.name, f]))
  const values = new Map<string, string>()
  const switches = new Set<string>()
  const operands: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--") {
      operands.push(...args.slice(i + 1))
      break
    }
    if (!arg.startsWith("-") || arg === "-") {
      operands.push(arg)
      continue
    }
    const eq = arg.indexOf("=")
    const name = eq > 0 ? arg.slice(0, eq) : arg
    const flag = byName.get(name)
    if (flag === undefined) return Result.fail(`unknown argument: ${arg}`)
    if (flag.value === undefined) {
      if (eq > 0) return Result.fail(`${name} takes no value`)
      if (switches.has(name)) return Result.fail(`${name} given twice`)
      switches.add(name)
      continue
    }
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i]
    if (value === undefined || (eq < 0 && value.startsWith("--")))
      return Result.fail(`${name} needs a value (${flag.value})`)
    if (values.has(name)) return Result.fail(`${name} given twice`)
    values.set(name, value)
  }
  const { min, max } = spec.operandCount ?? { min: 0, max: 0 }
  if (operands.length < min) return Result.fail(`expected ${spec.operands ?? "an operand"}`)
  if (operands.length > max)
    return Result.fail(max === 0 ? `unexpected argument: ${operands[0]}` : `unexpected argument: ${operands[max]}`)
  return Result.succeed({ values, switches, operands })
}

const synopsis = (program: string, spec: CommandSpec<unknown>): string =>
  [
    program,
    ...spec.path,
    ...(spec.flags.length > 0 ? ["[options]"] : []),
    ...(spec.operands ? [spec.operands] : [])
  ].join(" ")

/** `movenode run --help`. */
export const commandHelp = (program: string, spec: CommandSpec<unknown>): string => {
  const lines = [`usage: ${synopsis(program, spec)}`, "", spec.summary]
  if (spec.flags.length > 0) {
    lines.push("", "options:")
    const left = spec.flags.map((f) => (f.value === undefined ? f.name : `${f.name} ${f.value}`))
    const width = Math.max(...left.map((l) => l.length), "--help".length)
    spec.flags.forEach((f, i) => {
      lines.push(`  ${left[i]!.padEnd(width)}  ${f.description}`)
    })
    lines.push(`  ${"--help".padEnd(width)}  this help`)
  }
  if (spec.details !== undefined) lines.push("", spec.details)
  return lines.join("\n")
}

/** `movenode --help` (all commands) or `movenode module --help` (the commands under `prefix`). */
export const overviewHelp = (
  program: string,
  description: string,
  specs: ReadonlyArray<CommandSpec<unknown>>,
  prefix: ReadonlyArray<string> = []
): string => {
  const shown = specs.filter((s) => sameStart(prefix, s.path))
  const left = shown.map((s) => [program, ...s.path, ...(s.operands ? [s.operands] : [])].join(" "))
  const width = Math.max(...left.map((l) => l.length))
  const lines = prefix.length === 0 ? [description, "", "commands:"] : [`commands of ${program} ${prefix.join(" ")}:`]
  shown.forEach((s, i) => {
    lines.push(`  ${left[i]!.padEnd(width)}  ${s.summary}`)
  })
  if (prefix.length === 0) lines.push(`  ${`${program} --version`.padEnd(width)}  the version`)
  lines.push(
    "",
    `${program} ${prefix.length > 0 ? `${prefix.join(" ")} ` : ""}COMMAND --help shows a command's options.`
  )
  return lines.join("\n")
}

/**
 * Finds the command `argv` names (the longest matching path; the `[]` command when `argv` names
 * none and one exists) and parses its arguments. `--help`/`-h` anywhere in a command's arguments,
 * and `help [COMMAND…]`, give that command's help; `--version`/`-V`/`version` the version.
 */
export const resolveCommand = <C>(
  program: string,
  description: string,
  specs: ReadonlyArray<CommandSpec<C>>,
  argv: ReadonlyArray<string>
): Result.Result<Resolved<C>, UsageError> => {
  const all = specs as ReadonlyArray<CommandSpec<unknown>>
  const first = argv[0]
  if (first !== undefined && (VERSION.has(first) || (first === "version" && argv.length === 1)))
    return Result.succeed({ _tag: "Version" })
  if (first === "help") {
    const words = argv.slice(1)
    // `help` alone is the overview, even when a command runs with no command named.
    const exact =
      words.length === 0 ? undefined : all.find((s) => s.path.length === words.length && sameStart(s.path, words))
    if (exact !== undefined) return Result.succeed({ _tag: "Help", text: commandHelp(program, exact) })
    if (words.length === 0 || all.some((s) => sameStart(words, s.path)))
      return Result.succeed({ _tag: "Help", text: overviewHelp(program, description, all, words) })
    return Result.fail({ path: [], message: `no such command: ${words.join(" ")}` })
  }
  const spec = all
    .filter((s) => s.path.length > 0 && sameStart(s.path, argv))
    .sort((a, b) => b.path.length - a.path.length)[0]
  if (spec === undefined) {
    const group = first === undefined || first.startsWith("-") ? [] : [first]
    const inGroup = all.filter((s) => group.length > 0 && sameStart(group, s.path))
    if (inGroup.length > 0) {
      // A group named without a (known) subcommand: `movenode module`, `movenode module x`.
      if (argv.slice(1).some((a) => HELP.has(a)))
        return Result.succeed({ _tag: "Help", text: overviewHelp(program, description, all, group) })
      const sub = argv[1]
      const names = inGroup.map((s) => s.path[1]).join(", ")
      return Result.fail({
        path: group,
        message: sub === undefined ? `needs a subcommand: ${names}` : `unknown subcommand: ${sub} (known: ${names})`
      })
    }
    if (first !== undefined && !first.startsWith("-"))
      return Result.fail({ path: [], message: `unknown command: ${first}` })
    const fallback = all.find((s) => s.path.length === 0)
    if (fallback === undefined || (first !== undefined && HELP.has(first)))
      return Result.succeed({ _tag: "Help", text: overviewHelp(program, description, all) })
    return parseWith(program, fallback as CommandSpec<C>, argv)
  }
  return parseWith(program, spec as CommandSpec<C>, argv.slice(spec.path.length))
}

const parseWith = <C>(
  program: string,
  spec: CommandSpec<C>,
  args: ReadonlyArray<string>
): Result.Result<Resolved<C>, UsageError> => {
  const dashDash = args.indexOf("--")
  if ((dashDash < 0 ? args : args.slice(0, dashDash)).some((a) => HELP.has(a)))
    return Result.succeed({ _tag: "Help", text: commandHelp(program, spec as CommandSpec<unknown>) })
  const parsed = parseArgs(spec as CommandSpec<unknown>, args)
  if (Result.isFailure(parsed)) return Result.fail({ path: spec.path, message: parsed.failure })
  const command = spec.parse(parsed.success)
  if (Result.isFailure(command)) return Result.fail({ path: spec.path, message: command.failure })
  return Result.succeed({ _tag: "Command", command: command.success })
}

/** `movenode run: --listen: expected …` and where to read more, for stderr. */
export const formatUsageError = (program: string, e: UsageError): string => {
  const who = [program, ...e.path].join(" ")
  return `${who}: ${e.message}\n(${who} --help for usage)`
}
