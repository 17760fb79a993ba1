// The verdict rules: a requirement that was not tested is never a pass. Each case is a report the
// old rule ("no MUST failed") called conformant or judged wrongly.
import { describe, expect, it } from "vitest";
import { type CheckResult, verdictOf } from "../src/index.js";

const result = (id: string, tier: CheckResult["tier"], status: CheckResult["status"], message: string = status): CheckResult =>
  ({ id, tier, status, message }) as CheckResult;

describe("verdictOf", () => {
  it("conformant when every MUST passed; SHOULD failures, INFO and unadvertised capabilities do not decide", () => {
    expect(
      verdictOf([
        result("A", "MUST", "pass"),
        result("B", "SHOULD", "fail"),
        result("C", "INFO", "pass"),
        result("D", "CAPABILITY", "skip", "not advertised"),
        result("E", "MUST", "not_applicable", "in-process"),
      ]),
    ).toEqual({ verdict: "conformant", inconclusive: [] });
  });

  it("not_conformant when a MUST failed, or a CAPABILITY the peer advertised", () => {
    expect(verdictOf([result("A", "MUST", "fail"), result("B", "MUST", "not_tested")]).verdict).toBe("not_conformant");
    expect(verdictOf([result("A", "MUST", "pass"), result("D", "CAPABILITY", "fail")]).verdict).toBe("not_conformant");
  });

  it("inconclusive, with the reason and ids, when a MUST was blocked or never reached", () => {
    const blocked = "blocked by authentication: session/new answered -32000";
    expect(verdictOf([result("A", "MUST", "pass"), result("B", "MUST", "not_tested", blocked), result("C", "MUST", "not_tested", blocked)])).toEqual({
      verdict: "inconclusive",
      inconclusive: [`B, C: ${blocked}`],
    });
    expect(verdictOf([result("A", "MUST", "skip", "the client never cancelled")]).inconclusive).toEqual(["A: the client never cancelled"]);
  });

  it("inconclusive when an advertised CAPABILITY could not be exercised", () => {
    expect(verdictOf([result("A", "MUST", "pass"), result("D", "CAPABILITY", "not_tested", "blocked")]).verdict).toBe("inconclusive");
  });
});
