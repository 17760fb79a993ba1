// The repository's dependency rules, checked by `pnpm lint` (dependency-cruiser, chosen because it
// reads TypeScript's type-only imports too and states rules as data). Two kinds of rule:
// - no import cycle between source files, type-only imports included (a cycle of types still
//   ties two modules' changes together);
// - the package layering: a package imports only the packages below it. Bottom to top:
//   schema → core → transport-memory, transport-stdio, transport-websocket, agent, client →
//   (transport-http builds on transport-websocket for its WebSocket profile) → fleet-redis →
//   inspector, conformance → cli. The browser-safe packages keep their own rule in biome.jsonc.
/** Paths of each package's files (source and build alike: a package import resolves to dist). */
const pkg = (names) => `^packages/(${names.join("|")})/`;

/** What each package may not import: every package at its level or above, except itself. */
const LAYERS = {
  schema: [
    "core",
    "transport-memory",
    "transport-stdio",
    "transport-websocket",
    "transport-http",
    "fleet-redis",
    "agent",
    "client",
    "inspector",
    "conformance",
    "cli",
  ],
  core: ["transport-memory", "transport-stdio", "transport-websocket", "transport-http", "fleet-redis", "agent", "client", "inspector", "conformance", "cli"],
  "transport-memory": ["transport-stdio", "transport-websocket", "transport-http", "fleet-redis", "agent", "client", "inspector", "conformance", "cli"],
  "transport-stdio": ["transport-memory", "transport-websocket", "transport-http", "fleet-redis", "agent", "client", "inspector", "conformance", "cli"],
  "transport-websocket": ["transport-memory", "transport-stdio", "transport-http", "fleet-redis", "agent", "client", "inspector", "conformance", "cli"],
  "transport-http": ["transport-memory", "transport-stdio", "fleet-redis", "agent", "client", "inspector", "conformance", "cli"],
  "fleet-redis": ["transport-memory", "transport-stdio", "agent", "client", "inspector", "conformance", "cli"],
  agent: ["transport-memory", "transport-stdio", "transport-websocket", "transport-http", "fleet-redis", "client", "inspector", "conformance", "cli"],
  client: ["transport-memory", "transport-stdio", "transport-websocket", "transport-http", "fleet-redis", "agent", "inspector", "conformance", "cli"],
  inspector: ["conformance", "cli"],
  conformance: ["client", "inspector", "cli"],
};

module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "An import cycle between source files (type-only imports count): break it by moving what both need into a module of its own.",
      severity: "error",
      from: { path: "^packages/[^/]+/src/" },
      to: { circular: true },
    },
    ...Object.entries(LAYERS).map(([name, above]) => ({
      name: `layering-${name}`,
      comment: `@acpkit/${name} may not import ${above.map((other) => `@acpkit/${other}`).join(", ")}: they sit at its level or above it (.dependency-cruiser.cjs).`,
      severity: "error",
      from: { path: `^packages/${name}/src/` },
      to: { path: pkg(above) },
    })),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|generated)/|\\.d\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    combinedDependencies: false,
    preserveSymlinks: false,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
