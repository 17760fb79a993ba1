// Loaded with `node --import` by lib/import-floor.ts: writes one JSON line per module resolution
// ({ parent, specifier, url }) to the file named by IMPORT_GRAPH_FILE, so the bench can rebuild the
// module graph that importing a library walks.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from "node:fs";
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      const edge = { parent: context.parentURL ?? null, specifier, url: result.url };
      appendFileSync(${JSON.stringify(process.env.IMPORT_GRAPH_FILE)}, JSON.stringify(edge) + "\\n");
      return result;
    }
  `)}`,
);
