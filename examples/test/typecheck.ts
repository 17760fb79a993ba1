// Strict type-checking of example and guide modules against the built packages, with each
// problem named by where it came from (used by guides.test.ts and typed-examples.test.ts).
import ts from "typescript";

/** The compiler's problems with `files` (absolute paths), each as `name line N: message`; `nameOf` names a file. */
export function typeCheck(files: readonly string[], nameOf: (file: string) => string = (file) => file): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    skipLibCheck: true,
    noUncheckedIndexedAccess: true,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const file = diagnostic.file;
    const line = file && diagnostic.start !== undefined ? file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    return `${file ? nameOf(file.fileName) : "?"} line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  });
}
