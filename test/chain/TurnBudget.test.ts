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
})
