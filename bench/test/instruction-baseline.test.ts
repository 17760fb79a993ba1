// The rule CI's instruction-count gate applies (lib/instruction-baseline.ts), without valgrind.
import { describe, expect, it } from "vitest";
import { compareToBaseline } from "../lib/instruction-baseline.js";

describe("compareToBaseline", () => {
  const baseline = { "roundtrip/acpkit": 280_000, "update/acpkit": 120_000, "import/acpkit": 37_700_000 };

  it("fails a figure that grew by more than 5%, passes one that grew by less or shrank", () => {
    const rows = compareToBaseline({ "roundtrip/acpkit": 306_600, "update/acpkit": 125_900, "import/acpkit": 36_000_000 }, baseline);
    expect(rows.map((row) => [row.name, row.regressed])).toEqual([
      ["roundtrip/acpkit", true],
      ["update/acpkit", false],
      ["import/acpkit", false],
    ]);
    expect(rows[0]!.change).toBeCloseTo(0.095);
  });

  it("judges exactly 5% as no regression, and just over it as one", () => {
    expect(compareToBaseline({ "update/acpkit": 126_000 }, baseline)[0]!.regressed).toBe(false);
    expect(compareToBaseline({ "update/acpkit": 126_001 }, baseline)[0]!.regressed).toBe(true);
  });

  it("leaves out what the run did not measure, and ignores figures the baseline does not name", () => {
    expect(compareToBaseline({ "roundtrip/acpkit": 1, "roundtrip/official": 999_999_999 }, baseline).map((row) => row.name)).toEqual(["roundtrip/acpkit"]);
  });
});
