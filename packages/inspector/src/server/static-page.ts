// The page's files: built into dist/ui by scripts/build-ui.mjs, read once at start and served from
// memory under fixed names (nothing a request names is ever looked up on disk). The headers keep
// the page to itself: it loads nothing from anywhere else, cannot be framed, and does not leak its
// URL (which carries the token) in a Referer.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** One file of the page. */
export interface PageFile {
  body: Buffer;
  contentType: string;
}

const FILES: Record<string, string> = {
  "/": "index.html",
  "/index.html": "index.html",
  "/app.js": "app.js",
  "/app.css": "app.css",
};

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

/** Headers of every page response. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

/** Where the built page is: dist/ui next to dist/server, or dist/ui of the package when run from src (tests). */
function uiDirectory(): string {
  for (const candidate of ["../ui/", "../../dist/ui/"]) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}app.js`)) return dir;
  }
  throw new Error("the inspector page is not built (run the @acpkit/inspector build: it writes dist/ui)");
}

/** Read the page's files; the map's keys are request paths. */
export function loadPage(): Map<string, PageFile> {
  const dir = uiDirectory();
  const page = new Map<string, PageFile>();
  for (const [path, file] of Object.entries(FILES)) {
    const extension = file.slice(file.lastIndexOf(".") + 1);
    page.set(path, { body: readFileSync(dir + file), contentType: TYPES[extension]! });
  }
  return page;
}
