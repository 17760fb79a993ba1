// `acpkit check` in a CI gate, from outside: --json validates against the published report
// schema, --junit writes one test case per requirement, and --expected-failures turns red only on
// a new failure or a stale entry (and refuses a baseline with an id the kit does not have).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { AGENT_REQUIREMENTS } from "@acpkit/conformance";
import { runCli } from "../support/cli.js";

const TARGET = fileURLToPath(new URL("../fixtures/check-target-agent.mjs", import.meta.url));
const CLIENT = fileURLToPath(new URL("../fixtures/check-target-client.mjs", import.meta.url));
const SCHEMA = fileURLToPath(new URL("../../../conformance/schema/report.schema.json", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "acpkit-check-ci-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const broken = (id: string) => ["--", process.execPath, TARGET, "--break", id];
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe.concurrent("acpkit check in CI", () => {
  it("--json of an agent and of a client validate against the published report schema", async () => {
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(SCHEMA, "utf8")));
    const agent = await runCli(["check", "agent", "--json", "--timeout", "1000", ...broken("ACP-PROMPT-001")]);
    const client = await runCli(["check", "client", "--json", "--slow", "500", "--timeout", "6000", "--", process.execPath, CLIENT, "--", "{agent}"]);
    for (const result of [agent, client]) {
      const report = JSON.parse(result.stdout);
      expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    }
    // The schema is strict: a report with a result of an unknown id does not validate.
    const report = JSON.parse(agent.stdout);
    report.results[0].id = "ACPKIT-NOPE";
    expect(validate(report)).toBe(false);
  });

  it("--junit FILE: one test case per requirement, the failure with its message and transcript", async () => {
    const junit = join(dir, "agent.xml");
    const result = await runCli(["check", "agent", "--timeout", "1000", "--junit", junit, ...broken("ACP-PROMPT-001")]);
    expect(result.code).toBe(1);
    const xml = readFileSync(junit, "utf8");
    expect(xml.match(/<testcase /g)).toHaveLength(AGENT_REQUIREMENTS.length);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(
      /<testcase classname="[^"]*\.MUST" name="ACP-PROMPT-001 [^"]*">\n {6}<failure message="stopReason &quot;finished&quot; is not one of protocol v1&apos;s" type="MUST">/,
    );
    expect(xml).toContain("→ {&quot;jsonrpc&quot;:&quot;2.0&quot;");
    expect(xml).toContain('<property name="verdict" value="not_conformant"/>');
  });

  it("--expected-failures: exit 0 when the failures are the expected ones", async () => {
    const baseline = file("known.txt", "# fails until the stop reason is fixed\nACP-PROMPT-001\n");
    const result = await runCli(["check", "agent", "--timeout", "1000", "--expected-failures", baseline, ...broken("ACP-PROMPT-001")]);
    expect(result.stdout).toContain("not conformant: 1 MUST requirement(s) failed");
    expect(result.stdout).toContain("as expected: 1 known failure(s), no new one");
    expect(result.code).toBe(0);
  });

  it("--expected-failures: exit 1 on a failure that is not in the baseline", async () => {
    const baseline = file("other.txt", "ACPKIT-RPC-004\n");
    const result = await runCli(["check", "agent", "--json", "--timeout", "1000", "--expected-failures", baseline, ...broken("ACP-PROMPT-001")]);
    expect(result.stderr).toContain("new failures (not in the expected failures): ACP-PROMPT-001");
    expect(result.code).toBe(1);
  });

  it("--expected-failures: exit 1 on a stale entry, an id that passes now", async () => {
    const baseline = file("stale.txt", "ACP-PROMPT-001\nACPKIT-RPC-004\n");
    const result = await runCli(["check", "agent", "--timeout", "1000", "--expected-failures", baseline, ...broken("ACP-PROMPT-001")]);
    expect(result.stdout).toContain("stale expected failures (these pass now; remove them from the file): ACPKIT-RPC-004");
    expect(result.code).toBe(1);
  });

  it("--expected-failures with an id the kit does not have: exit 2 naming the line, before anything runs", async () => {
    const baseline = file("typo.txt", "ACP-PROMPT-001\nACP-PROMT-001\n");
    const result = await runCli(["check", "agent", "--expected-failures", baseline, "--", "/nonexistent/agent"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${baseline}, line 2: "ACP-PROMT-001" is not a requirement id of the kit`);
  });
});
