/** The event loop's turn budget (src/chain/TurnBudget.ts): order, deferral, no lost task. */
import { describe, expect, it } from "vitest"
import { TurnBudget } from "../../src/chain/TurnBudget.js"

const nextTurn = () => new Promise<void>((r) => setImmediate(r))

describe("TurnBudget", () => {
  it("runs a task at once while the turn has budget", () => {
    const budget = new TurnBudget(1_000)
    let ran = false
    budget.run(() => {
      ran = true
    })
    expect(ran).toBe(true)
    expect(budget.hasBudget()).toBe(true)
  })

  it("defers tasks past the budget to later turns, in order, and runs every one", async () => {
    const budget = new TurnBudget(0.5)
    const ran: number[] = []
    const spin = () => {
      const until = performance.now() + 1
      while (performance.now() < until) {}
    }
    for (let i = 0; i < 20; i++)
      budget.run(() => {
        spin()
        ran.push(i)
      })
    // The first task used the turn's budget: the rest wait for later turns.
    expect(ran).toEqual([0])
    expect(budget.waiting).toBe(19)
    expect(budget.hasBudget()).toBe(false)
    let turns = 0
    while (ran.length < 20 && turns < 1_000) {
      await nextTurn()
      turns++
    }
    expect(ran).toEqual(Array.from({ length: 20 }, (_, i) => i))
    // Each drain ran at most about one task past its budget: it took more than one turn.
    expect(turns).toBeGreaterThan(1)
    expect(budget.waiting).toBe(0)
  })

  it("the drain continues the turn that queued its tasks: one budget between two poll phases, not two", async () => {
    // Each task takes 1.2 ms of a clock that moves only with the tasks: a busy machine preempting
    // this thread mid-task (which made a wall-clock task take the whole budget) changes nothing.
    let clock = 0
    const budget = new TurnBudget(2, () => clock)
    const ran: number[] = []
    const spin = () => {
      clock += 1.2
    }
    // Outside the check phase (a timer here, as a socket's callback in the poll phase): the
    // budget's tasks run at once until it is spent, the rest is queued for the drain.
    const seenByNextTurn = await new Promise<number>((resolve) =>
      setTimeout(() => {
        for (let i = 0; i < 10; i++)
          budget.run(() => {
            spin()
            ran.push(i)
          })
        // Queued after the drain: runs in this turn's check phase right after it (immediates run in
        // order), before any later turn's drain.
        setImmediate(() => resolve(ran.length))
      }, 0)
    )
    // Two tasks spent this turn's 2 ms; the drain of the same turn ran none (it used to run two more).
    expect(seenByNextTurn).toBe(2)
    let turns = 0
    while (ran.length < 10 && turns < 1_000) {
      await nextTurn()
      turns++
    }
    expect(ran).toEqual(Array.from({ length: 10 }, (_, i) => i))
  })
})
