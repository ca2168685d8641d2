// The owner's terminal: `approve` and `seal` act only on a yes a person types (P-11, P-17).
import { createInterface } from 'node:readline'

import { agentEvidence } from './agent.mjs'

/**
 * Why `approval-gates <command>` must not ask here, or null: stdin is not a terminal (an agent must
 * not be able to pipe its own yes), or an agent harness started this process or holds its terminal.
 * `nothing` says what is then left undone ("nothing approved").
 */
export function ownerRefusal(io, command, nothing) {
  if (!io.stdin.isTTY) {
    return `approval-gates ${command}: stdin is not a terminal, so the owner cannot be asked; ${nothing}. Run it yourself in a terminal.`
  }
  const agent = agentEvidence()
  if (agent !== null) {
    return `approval-gates ${command}: ${agent}, so an agent may be typing the answer; ${nothing}. Run it yourself in a terminal of your own.`
  }
  return null
}

/** Prints `prompt` and reads the owner's answer: the line typed, or null when the input ended first. */
export async function askLine(io, prompt) {
  const lines = createInterface({ input: io.stdin, output: io.stdout, terminal: false })
  io.stdout.write(prompt)
  try {
    for await (const line of lines) return line
    return null
  } finally {
    lines.close()
  }
}

/** Prints `prompt` and reads one line: true only for `y` or `yes`. */
export async function askYes(io, prompt) {
  const line = await askLine(io, prompt)
  return line !== null && /^(y|yes)$/i.test(line.trim())
}
