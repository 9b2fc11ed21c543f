// tokenjuice:generated — OpenCode plugin written by `tokenjuice install opencode`; `tokenjuice uninstall opencode` removes it.
// MODE "post": after a bash command ran, it asks `tokenjuice hook opencode` (below) for a compacted output and
// replaces output.output with it; with TOOLS "all", the same for the search tools' output.output and for the text
// blocks of an MCP tool's result (output.content), but an MCP file read's. MODE "pre": before, it asks whether to
// run the command through `tokenjuice wrap` and changes output.args.command in place when it says so. Any failure
// or a slow answer leaves everything as it is; a tool it does not compact never starts the hook.
const HOOK = __HOOK__
const TIMEOUT_MS = __TIMEOUT_MS__
const MODE = __MODE__
const TOOLS = __TOOLS__
const SEARCH_TOOLS = __SEARCH_TOOLS__
const FILE_READS = __FILE_READS__

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

// An MCP tool's result (`<server>_<tool>`, the server's CallToolResult): its text blocks' texts handed over
// and set in place from the answer's `texts`, one for each, when no block changed meanwhile.
const mcpAfter = async (ctx, input, output) => {
  if (TOOLS !== "all" || typeof input.tool !== "string" || FILE_READS.some((r) => input.tool.endsWith("_" + r))) return
  const blocks = output.content.filter((block) => block && block.type === "text" && typeof block.text === "string")
  if (!blocks.length || output.isError === true || typeof ctx.$ !== "function") return
  const texts = blocks.map((block) => block.text)
  const args = input.args && typeof input.args === "object" ? input.args : {}
  const payload = { event: "after", tool: input.tool, args, directory: ctx.directory, worktree: ctx.worktree, texts }
  const answer = await ask(ctx.$, payload, typeof ctx.directory === "string" ? ctx.directory : undefined)
  const replaced = answer && Array.isArray(answer.texts) ? answer.texts : null
  if (!replaced || replaced.length !== blocks.length || replaced.some((text) => typeof text !== "string")) return
  if (blocks.some((block, i) => block.text !== texts[i])) return
  blocks.forEach((block, i) => {
    block.text = replaced[i]
  })
}

export const TokenjuicePlugin = async (ctx) => ({
  "tool.execute.after": async (input, output) => {
    try {
      if (MODE !== "post" || !input || !output) return
      if (input.tool !== "bash" && typeof output.output !== "string" && Array.isArray(output.content)) {
        return await mcpAfter(ctx, input, output)
      }
      const search = TOOLS === "all" && SEARCH_TOOLS.includes(input.tool)
      if ((input.tool !== "bash" && !search) || typeof output.output !== "string") return
      const args = input.args && typeof input.args === "object" ? input.args : {}
      if (!search && (typeof args.command !== "string" || !args.command.trim())) return
      if (typeof ctx.$ !== "function") return
      const meta = output.metadata && typeof output.metadata === "object" ? output.metadata : {}
      const payload = {
        event: "after",
        tool: input.tool,
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
