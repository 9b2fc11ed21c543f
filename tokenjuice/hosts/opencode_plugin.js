// tokenjuice:generated — OpenCode plugin written by `tokenjuice install opencode`; `tokenjuice uninstall opencode` removes it.
// It asks `tokenjuice hook opencode` (below) whether to run a bash command through `tokenjuice wrap`,
// and changes output.args.command in place when it says so. Any failure or a slow answer leaves the command as it is.
const HOOK = __HOOK__
const TIMEOUT_MS = __TIMEOUT_MS__

const ask = async ($, payload, cwd) => {
  let timer
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), TIMEOUT_MS)
  })
  const run = (async () => {
    let shell = $`${HOOK} < ${new Response(JSON.stringify(payload))}`.quiet().nothrow()
    if (cwd && typeof shell.cwd === "function") shell = shell.cwd(cwd)
    const result = await shell
    if (!result || result.exitCode !== 0) return null
    return JSON.parse(result.stdout.toString())
  })().catch(() => null)
  try {
    return await Promise.race([run, late])
  } finally {
    clearTimeout(timer)
  }
}

export const TokenjuicePlugin = async (ctx) => ({
  "tool.execute.before": async (input, output) => {
    try {
      if (!input || input.tool !== "bash" || !output || !output.args) return
      const command = output.args.command
      if (typeof command !== "string" || !command.trim() || typeof ctx.$ !== "function") return
      const cwd = typeof output.args.workdir === "string" && output.args.workdir ? output.args.workdir : ctx.directory
      const payload = { tool: "bash", args: output.args, directory: ctx.directory, worktree: ctx.worktree }
      const answer = await ask(ctx.$, payload, typeof cwd === "string" ? cwd : undefined)
      if (answer && typeof answer.command === "string" && answer.command && output.args.command === command) {
        output.args.command = answer.command
      }
    } catch {
      // never fail a tool call: the command runs unchanged
    }
  },
})
