// Loads a tokenjuice OpenCode plugin under node with a stand-in for the plugin
// context's Bun shell (`ctx.$`), runs its tool.execute.before on one call, and
// prints {"args": output.args after the hook, "threw": bool, "shellCalls": n}; for an INPUT_JSON with
// "event": "after", its tool.execute.after on {"output", "metadata"} (or, with "content", on an MCP tool's
// CallToolResult {"content", "isError"}) and prints {"output": …, "content": …, "threw", "shellCalls"}.
// usage: node opencode_plugin_harness.mjs PLUGIN.mjs INPUT_JSON [MODE]
// MODE: "real" (spawn the hook), "throw" ($ throws), "hang" ($ never answers),
// "garbage" (the hook prints junk), "nodollar" (no ctx.$).
import { spawn } from "node:child_process"
import { pathToFileURL } from "node:url"

const [pluginPath, inputJson, mode = "real"] = process.argv.slice(2)
const call = JSON.parse(inputJson)
let shellCalls = 0

function fakeShell(strings, ...values) {
  shellCalls += 1
  if (mode === "throw") throw new Error("shell failed")
  let cwd
  const argv = values[0]
  const stdin = values[1]
  const promise = {
    quiet() { return promise },
    nothrow() { return promise },
    cwd(dir) { cwd = dir; return promise },
    then(resolve, reject) {
      if (mode === "hang") return new Promise(() => {}).then(resolve, reject)
      if (mode === "garbage") return Promise.resolve({ exitCode: 0, stdout: Buffer.from("not json") }).then(resolve, reject)
      return (async () => {
        if (!Array.isArray(argv) || strings.join("|") !== "| < |") throw new Error("unexpected shell template")
        const body = await stdin.text()
        return await new Promise((done, fail) => {
          const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ["pipe", "pipe", "inherit"] })
          const out = []
          child.stdout.on("data", (chunk) => out.push(chunk))
          child.on("error", fail)
          child.on("close", (code) => done({ exitCode: code, stdout: Buffer.concat(out) }))
          child.stdin.end(body)
        })
      })().then(resolve, reject)
    },
  }
  return promise
}

const mod = await import(pathToFileURL(pluginPath).href)
const plugin = Object.values(mod)[0]
const ctx = { directory: call.directory, worktree: call.worktree ?? "/", $: mode === "nodollar" ? undefined : fakeShell }
const hooks = await plugin(ctx)
let threw = false
if (call.event === "after") {
  // tool.execute.after: {tool, sessionID, callID, args} and {title, output, metadata}, or an MCP tool's result
  const output = call.content
    ? { content: call.content, ...(call.isError === undefined ? {} : { isError: call.isError }) }
    : { title: call.args.command, output: call.output, metadata: call.metadata ?? {} }
  try {
    await hooks["tool.execute.after"]({ tool: call.tool, sessionID: "s", callID: "c", args: call.args }, output)
  } catch {
    threw = true
  }
  process.stdout.write(JSON.stringify({ output: output.output, content: output.content, threw, shellCalls }) + "\n")
  process.exit(0)
}
const output = { args: call.args }
try {
  await hooks["tool.execute.before"]({ tool: call.tool, sessionID: "s", callID: "c" }, output)
} catch {
  threw = true
}
process.stdout.write(JSON.stringify({ args: output.args, threw, shellCalls }) + "\n")
process.exit(0)
