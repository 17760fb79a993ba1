// The API reports: one `api/<package>[.<entry>].api.md` per public entry of every published
// package, written by API Extractor from the built declarations. They are committed, so a change
// of the public API shows in review as a change of its report; `--check` (CI) fails when a report
// is out of date, naming the entry and the command that updates it. API Extractor, because it
// reads declarations the way TypeScript does and its reports are the common review format.
//
//   node scripts/api-report.mjs           write the reports (after `pnpm build`)
//   node scripts/api-report.mjs --check   fail when one differs from what the build declares
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = join(import.meta.dirname, "..");
const check = process.argv.includes("--check");
const reportFolder = join(root, "api");
const temp = mkdtempSync(join(tmpdir(), "acpkit-api-"));

/**
 * The declaration file of each public JavaScript entry of a package: [report suffix, path]. An
 * entry with conditions (the WebSocket transport's node and browser builds) gets one report per
 * declaration file, named after its condition.
 */
function entries(dir, manifest) {
  const base = (subpath) => (subpath === "." ? "" : `.${subpath.slice(2).replaceAll("/", "-")}`);
  return Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) => {
    if (subpath === "./package.json") return [];
    if (typeof target === "string") return target.endsWith(".js") ? [[base(subpath), join(dir, target.replace(/\.js$/, ".d.ts"))]] : [];
    return Object.entries(target)
      .filter(([, branch]) => typeof branch === "object" && typeof branch.types === "string")
      .map(([condition, branch]) => [`${base(subpath)}.${condition}`, join(dir, branch.types)]);
  });
}

// Messages that describe the codebase's conventions rather than problems: acpkit does not use
// release tags, and a type that is reachable but not exported is shown in the report as is.
const QUIET = { logLevel: "none", addToApiReportFile: false };
const messages = {
  compilerMessageReporting: { default: { logLevel: "warning" } },
  extractorMessageReporting: {
    default: { logLevel: "warning" },
    "ae-missing-release-tag": QUIET,
    "ae-forgotten-export": QUIET,
    "ae-internal-missing-underscore": QUIET,
    "ae-unresolved-link": QUIET,
    // Documentation coverage is typedoc's job (pnpm run docs fails on an undocumented export).
    "ae-undocumented": QUIET,
  },
  tsdocMessageReporting: { default: QUIET },
};

const problems = [];
let written = 0;
/** The report files this run stands for: any other in api/ belongs to an entry that is gone. */
const reported = new Set();
try {
  for (const dirName of readdirSync(join(root, "packages")).sort()) {
    const dir = join(root, "packages", dirName);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    if (manifest.private) continue;
    for (const [suffix, entry] of entries(dir, manifest)) {
      if (!existsSync(entry)) {
        problems.push(`${manifest.name}${suffix}: ${entry} is missing; run pnpm build first`);
        continue;
      }
      const reportName = `${manifest.name.replace(/^@acpkit\//, "")}${suffix}`;
      reported.add(`${reportName}.api.md`);
      const config = ExtractorConfig.prepare({
        configObjectFullPath: undefined,
        packageJsonFullPath: join(dir, "package.json"),
        configObject: {
          projectFolder: dir,
          mainEntryPointFilePath: entry,
          bundledPackages: [],
          // One program setting for every entry: the Node-only entries name Node's global types
          // (NodeJS.ProcessEnv), which the browser-safe packages' own build settings leave out.
          compiler: {
            overrideTsconfig: {
              compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: ["node"], strict: true },
              files: [entry],
            },
          },
          apiReport: { enabled: true, reportFolder, reportTempFolder: temp, reportFileName: `${reportName}.api.md` },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          newlineKind: "lf",
          messages,
        },
      });
      const result = Extractor.invoke(config, {
        localBuild: !check,
        showVerboseMessages: false,
        messageCallback: (message) => {
          // API Extractor also reports its own doings (a report written or changed) as warnings: those are not problems.
          if ((message.logLevel === "warning" || message.logLevel === "error") && !message.messageId.startsWith("console-"))
            problems.push(`${reportName}: [${message.messageId}] ${message.text} (${message.sourceFilePath ?? ""}:${message.sourceFileLine ?? ""})`);
          message.handled = true;
        },
      });
      written++;
      if (check && result.apiReportChanged)
        problems.push(
          `api/${reportName}.api.md is out of date: the public API of ${manifest.name}${suffix ? ` (${suffix.slice(1)})` : ""} changed. Review the change and run \`pnpm api:update\`.`,
        );
    }
  }
  for (const file of readdirSync(reportFolder).filter((name) => name.endsWith(".api.md") && !reported.has(name))) {
    if (check) problems.push(`api/${file} is the report of an entry that no longer exists: run \`pnpm api:update\` to remove it.`);
    else rmSync(join(reportFolder, file));
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`${check ? "checked" : "wrote"} ${written} API reports in api/`);
