// Builds the inspector page into dist/ui: one minified ES module (Preact, @acpkit/client, the
// browser WebSocket transport and the page's own code), its stylesheet and index.html. Run by the
// package build after tsc; the server serves these files and nothing else.
import { copyFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}dist/ui/`;
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: [`${root}src/ui/main.tsx`],
  outfile: `${out}app.js`,
  bundle: true,
  minify: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});
copyFileSync(`${root}src/ui/index.html`, `${out}index.html`);
copyFileSync(`${root}src/ui/app.css`, `${out}app.css`);
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`inspector page: dist/ui/app.js ${(bytes / 1024).toFixed(0)} KiB`);
