// Compiles test/fixtures/narrowing.ts with the TypeScript compiler: the generated unions must
// narrow in a switch, exhaustiveness must be checkable, and every `@ts-expect-error` in the
// fixture must be a real error (an unused one is itself a diagnostic).
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const fixture = join(import.meta.dirname, "fixtures", "narrowing.ts");

function diagnosticsOf(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noUncheckedIndexedAccess: true,
    types: [],
  });
  // Only the file under test: other modules of the package are checked by their own typecheck.
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

describe("generated types", () => {
  it("narrow, check exhaustively and keep optional apart from nullable", () => {
    expect(diagnosticsOf(fixture)).toEqual([]);
  });

  it("reject a switch that reads a field the case does not narrow to", async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "acpkit-types-"));
    const file = join(dir, "wrong.ts");
    const index = join(import.meta.dirname, "..", "src", "index.js").replace(/\\/g, "/");
    writeFileSync(
      file,
      `import type { v2 } from ${JSON.stringify(index)};
export function f(u: v2.SessionUpdate): string {
  switch (u.sessionUpdate) {
    case "usage_update": return u.messageId;
    default: return "";
  }
}
`,
    );
    try {
      const diagnostics = diagnosticsOf(file);
      expect(diagnostics.join("\n")).toMatch(/Property 'messageId' does not exist on type 'SessionUpdateUsageUpdate'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
