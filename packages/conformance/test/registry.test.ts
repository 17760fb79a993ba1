// The requirement registry holds every id to exactly one judge: the groups' declared ids
// partition the table, each requirement names the group that judges it, and a group that writes
// an id it did not declare is stopped. The published report schema lists exactly the same ids.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  AGENT_CHECK_GROUPS,
  AGENT_REQUIREMENTS,
  CLIENT_CHECK_GROUPS,
  CLIENT_REQUIREMENTS,
  isRequirementId,
  requirement,
  requirementSide,
  type RequirementId,
} from "../src/index.js";
import { Results } from "../src/results.js";

const sides = [
  ["agent", AGENT_REQUIREMENTS, AGENT_CHECK_GROUPS],
  ["client", CLIENT_REQUIREMENTS, CLIENT_CHECK_GROUPS],
] as const;

describe("requirement registry", () => {
  for (const [side, table, groups] of sides) {
    it(`${side}: every requirement has exactly one judge, the group it names`, () => {
      const judgedBy = new Map<string, string[]>();
      for (const group of groups) for (const id of group.judges) judgedBy.set(id, [...(judgedBy.get(id) ?? []), group.name]);
      for (const entry of table) {
        expect(judgedBy.get(entry.id), entry.id).toEqual([entry.group]);
      }
      expect([...judgedBy.keys()].sort()).toEqual(table.map((entry) => entry.id).sort());
    });
  }

  it("ids are unique, and a CAPABILITY requirement says what must be advertised", () => {
    const ids = [...AGENT_REQUIREMENTS, ...CLIENT_REQUIREMENTS].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of [...AGENT_REQUIREMENTS, ...CLIENT_REQUIREMENTS])
      expect(entry.tier === "CAPABILITY", entry.id).toBe(typeof entry.capability === "string");
  });

  it("looks ids up, and refuses one the kit does not have", () => {
    expect(requirement("ACP-PROMPT-001").tier).toBe("MUST");
    expect(requirementSide("ACP-PROMPT-001")).toBe("agent");
    expect(requirementSide("ACPKIT-CLIENT-PERM-001")).toBe("client");
    expect(isRequirementId("ACPKIT-RPC-005")).toBe(true);
    expect(isRequirementId("ACPKIT-RPC-999")).toBe(false);
    expect(() => requirement("ACPKIT-NOPE" as RequirementId)).toThrow(/no requirement "ACPKIT-NOPE"/);
  });

  it("a group that writes an id it does not judge is stopped", () => {
    const results = new Results(AGENT_REQUIREMENTS);
    const wire = results.for(AGENT_CHECK_GROUPS.find((group) => group.name === "wire")!);
    wire.pass("ACPKIT-STDIO-001", "fine");
    expect(() => wire.pass("ACP-PROMPT-001", "not mine")).toThrow(/group wire wrote ACP-PROMPT-001/);
    expect(results.list().find((result) => result.id === "ACP-PROMPT-001")?.status).toBe("not_tested");
  });

  it("a failure, once found, stays: a later pass does not hide it", () => {
    const results = new Results(AGENT_REQUIREMENTS);
    const wire = results.for(AGENT_CHECK_GROUPS.find((group) => group.name === "wire")!);
    wire.set("ACPKIT-RPC-002", "fail", "both result and error", ["← {}"]);
    wire.set("ACPKIT-RPC-002", "pass", "fine on the next connection");
    expect(results.list().find((result) => result.id === "ACPKIT-RPC-002")).toMatchObject({ status: "fail", transcript: ["← {}"] });
  });

  it("the published report schema names exactly the registry's ids", () => {
    const schema = JSON.parse(readFileSync(new URL("../schema/report.schema.json", import.meta.url), "utf8"));
    expect(schema.$defs.agentResult.properties.id.enum).toEqual(AGENT_REQUIREMENTS.map((entry) => entry.id));
    expect(schema.$defs.clientResult.properties.id.enum).toEqual(CLIENT_REQUIREMENTS.map((entry) => entry.id));
  });
});

describe("docs/conformance.md", () => {
  it("lists every requirement with the registry's tier and text, and nothing else", () => {
    const doc = readFileSync(new URL("../../../docs/conformance.md", import.meta.url), "utf8");
    const rows = [...doc.matchAll(/^\| `((?:AC|LATER)[\w-]+)` \| ([A-Z]+) \| (.+?) \| .+ \|$/gm)].map(([, id, tier, text]) => ({ id, tier, text: text ?? "" }));
    const documented = (id: string) => rows.find((row) => row.id === id);
    for (const entry of [...AGENT_REQUIREMENTS, ...CLIENT_REQUIREMENTS]) {
      const row = documented(entry.id);
      expect(row, `${entry.id} is in docs/conformance.md`).toBeDefined();
      expect(row?.tier, entry.id).toBe(entry.tier);
      // The docs may add a note in parentheses after the registry's sentence.
      expect(row?.text.startsWith(entry.text), `${entry.id}: "${row?.text}" starts with the registry's "${entry.text}"`).toBe(true);
    }
    expect(rows.map((row) => row.id).sort()).toEqual([...AGENT_REQUIREMENTS, ...CLIENT_REQUIREMENTS].map((entry) => entry.id).sort());
  });
});
