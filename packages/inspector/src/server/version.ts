// The package's own version, for the page's footer and `GET /api/info`.
import { readFileSync } from "node:fs";

export function packageVersion(): string {
  try {
    // src/server/*.ts and dist/server/*.js both sit two levels below the package root.
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}
