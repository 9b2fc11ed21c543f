// tokenjuice:generated — OpenCode plugin written by `tokenjuice install opencode`; `tokenjuice uninstall opencode` removes it.
// MODE "post": after a bash command ran, it asks `tokenjuice hook opencode` (below) for a compacted output and
// replaces output.output with it. MODE "pre": before, it asks whether to run the command through `tokenjuice wrap`
// and changes output.args.command in place when it says so. Any failure or a slow answer leaves everything as it is.
const HOOK = __HOOK__
const TIMEOUT_MS = __TIMEOUT_MS__
const MODE = __MODE__

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
  "tool.execute.after": async (input, output) => {
    try {
      if (MODE !== "post" || !input || input.tool !== "bash" || !output || typeof output.output !== "string") return
      const args = input.args && typeof input.args === "object" ? input.args : {}
      if (typeof args.command !== "string" || !args.command.trim() || typeof ctx.$ !== "function") return
      const meta = output.metadata && typeof output.metadata === "object" ? output.metadata : {}
      const payload = {
        event: "after",
        tool: "bash",
        args,
        directory: ctx.directory,
        worktree: ctx.worktree,
        output: output.output,
        exit: meta.exit,
        truncated: meta.truncated,
        outputPath: meta.outputPath,
      }
      const cwd = typeof args.workdir === "string" && args.workdir ? args.workdir : ctx.directory
      const shown = output.output
      const answer = await ask(ctx.$, payload, typeof cwd === "string" ? cwd : undefined)
      if (answer && typeof answer.output === "string" && answer.output && output.output === shown) {
        output.output = answer.output
      }
    } catch {
      // never fail a tool call: the output stays as it is
    }
  },
  "tool.execute.before": async (input, output) => {
    try {
      if (MODE !== "pre" || !input || input.tool !== "bash" || !output || !output.args) return
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
