// Starting `acpkit serve` for a test: the process, its one stdout line (RT24) and its output so
// far; killed when the test finishes if it still runs.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { expect, type TestContext } from "vitest";
import { BUILTIN_AGENT, startCli } from "./cli.js";

/** Start `acpkit serve` and resolve with the URL of its one stdout line, `serving: URL`. */
export async function startServe(
  context: TestContext,
  flags: readonly string[],
  agent: readonly string[] = BUILTIN_AGENT,
  env: Record<string, string> = {},
): Promise<{ url: string; serve: ChildProcess; stdout: () => string; stderr: () => string }> {
  const serve = startCli(["serve", ...flags, "--", ...agent], { env });
  context.onTestFinished(async () => {
    if (serve.exitCode === null && serve.signalCode === null) {
      serve.kill("SIGKILL");
      await once(serve, "exit");
    }
  });
  let stderr = "";
  let stdout = "";
  serve.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  serve.stdout!.setEncoding("utf8");
  const line = await new Promise<string>((resolve, reject) => {
    serve.stdout!.on("data", (text: string) => {
      stdout += text;
      const newline = stdout.indexOf("\n");
      if (newline !== -1) resolve(stdout.slice(0, newline));
    });
    serve.once("exit", (code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
  });
  // RT24: exactly one line, once it accepts connections.
  expect(line).toMatch(/^serving: https?:\/\/127\.0\.0\.1:\d+\/acp$/);
  return { url: line.slice("serving: ".length), serve, stdout: () => stdout, stderr: () => stderr };
}
