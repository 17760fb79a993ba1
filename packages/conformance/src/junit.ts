// A report as JUnit XML, the format CI systems show as test results: one test case per
// requirement, a failure carrying its message and the wire transcript, skip / not_tested /
// not_applicable as skipped with why.
import type { AgentCheckReport, CheckResult, ClientCheckReport } from "./report.js";
import { requirement } from "./requirements.js";

/** Text safe inside an XML attribute or element: the five special characters escaped, characters XML 1.0 cannot hold replaced. */
function xml(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 allows are exactly what this class names.
  const allowed = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
  return text.replace(allowed, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

function testCase(suite: string, result: CheckResult): string {
  const name = `${result.id} ${requirement(result.id).text}`;
  const open = `    <testcase classname="${xml(`${suite}.${result.tier}`)}" name="${xml(name)}">`;
  switch (result.status) {
    case "pass":
      return `${open}\n      <system-out>${xml(result.message)}</system-out>\n    </testcase>`;
    case "fail": {
      const transcript = (result.transcript ?? []).join("\n");
      return `${open}\n      <failure message="${xml(result.message)}" type="${xml(result.tier)}">${xml(transcript ? `${result.message}\n\n${transcript}` : result.message)}</failure>\n    </testcase>`;
    }
    default:
      return `${open}\n      <skipped message="${xml(`${result.status}: ${result.message}`)}"/>\n    </testcase>`;
  }
}

/**
 * The report as a JUnit XML document: one `<testsuite>` (named `suiteName`, default after the
 * checked side), one `<testcase>` per requirement. The suite's properties carry the verdict.
 */
export function toJUnit(report: AgentCheckReport | ClientCheckReport, suiteName?: string): string {
  const who = "agent" in report ? report.agent : report.client;
  const name = suiteName ?? `acpkit conformance: ${"agent" in report ? "agent" : "client"}${who ? ` ${who.name} ${who.version}` : ""}`;
  const count = (test: (result: CheckResult) => boolean) => report.results.filter(test).length;
  const failures = count((result) => result.status === "fail");
  const skipped = count((result) => result.status !== "pass" && result.status !== "fail");
  const properties = [
    ["verdict", report.verdict],
    ["protocolVersion", String(report.protocolVersion ?? "")],
    ...report.inconclusive.map((reason) => ["inconclusive", reason]),
  ]
    .map(([key, value]) => `      <property name="${xml(key!)}" value="${xml(value!)}"/>`)
    .join("\n");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" tests="${report.results.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="${xml(name)}" tests="${report.results.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `    <properties>\n${properties}\n    </properties>`,
    ...report.results.map((result) => testCase(name, result)),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
