// CI forms of a report: JUnit XML that parses and carries failures with their transcript, and
// the expected-failures baseline that is red on a new failure and on a stale entry.
import { describe, expect, it } from "vitest";
import { type AgentCheckReport, BaselineError, compareWithBaseline, parseBaseline, toJUnit } from "../src/index.js";

const report: AgentCheckReport = {
  verdict: "not_conformant",
  inconclusive: [],
  conformant: false,
  protocolVersion: 1,
  agent: { name: "demo <agent>", version: "1.0" },
  results: [
    { id: "ACPKIT-STDIO-001", tier: "MUST", status: "pass", message: "12 lines" },
    {
      id: "ACPKIT-RPC-005",
      tier: "MUST",
      status: "fail",
      message: 'code -32600, not -32700 & "id" missing',
      transcript: ["→ {broken", '← {"error":{}}\u0001'],
    },
    { id: "ACPKIT-EXIT-001", tier: "SHOULD", status: "not_applicable", message: "no stdin" },
  ],
};

describe("toJUnit", () => {
  it("one test case per requirement; the failure carries message and transcript, escaped", () => {
    const xml = toJUnit(report);
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="acpkit conformance: agent demo &lt;agent&gt; 1.0" tests="3" failures="1" skipped="1">/,
    );
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('<failure message="code -32600, not -32700 &amp; &quot;id&quot; missing" type="MUST">');
    expect(xml).toContain("→ {broken\n← {&quot;error&quot;:{}}\uFFFD</failure>");
    expect(xml).toContain('<skipped message="not_applicable: no stdin"/>');
    expect(xml).toContain('<property name="verdict" value="not_conformant"/>');
    // Nothing XML 1.0 cannot hold survives.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for exactly those characters.
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });
});

describe("expected failures", () => {
  it("reads ids one per line with comments, or a JSON array", () => {
    expect(parseBaseline("# known\nACPKIT-RPC-005   # parse errors\n\nACP-CANCEL-001\n")).toEqual(["ACPKIT-RPC-005", "ACP-CANCEL-001"]);
    expect(parseBaseline('["ACPKIT-RPC-005"]')).toEqual(["ACPKIT-RPC-005"]);
  });

  it("names the line of an unknown or repeated id", () => {
    expect(() => parseBaseline("ACPKIT-RPC-005\nACPKIT-RPC-05\n", "known.txt")).toThrow(BaselineError);
    expect(() => parseBaseline("ACPKIT-RPC-005\nACPKIT-RPC-05\n", "known.txt")).toThrow('known.txt, line 2: "ACPKIT-RPC-05" is not a requirement id');
    expect(() => parseBaseline("ACPKIT-RPC-005\nACPKIT-RPC-005\n", "known.txt")).toThrow("known.txt, line 2: ACPKIT-RPC-005 is listed twice");
    expect(() => parseBaseline("[1]", "known.json")).toThrow("known.json, entry 0: 1 is not a requirement id");
  });

  it("green when the failures are the expected ones", () => {
    expect(compareWithBaseline(report, ["ACPKIT-RPC-005"])).toEqual({ ok: true, newFailures: [], stale: [], expected: ["ACPKIT-RPC-005"], unjudged: [] });
  });

  it("red on a new failure, and on a baselined id that passes now", () => {
    expect(compareWithBaseline(report, [])).toMatchObject({ ok: false, newFailures: ["ACPKIT-RPC-005"] });
    expect(compareWithBaseline(report, ["ACPKIT-RPC-005", "ACPKIT-STDIO-001"])).toMatchObject({ ok: false, stale: ["ACPKIT-STDIO-001"] });
    expect(compareWithBaseline(report, ["ACPKIT-RPC-005", "ACPKIT-EXIT-001"])).toMatchObject({ ok: true, unjudged: ["ACPKIT-EXIT-001"] });
  });
});
