import { SchemaModel } from "../schema-model.ts";
import { generateVersion } from "../pipeline.ts";
import { mkdirSync, writeFileSync } from "node:fs";
const m = SchemaModel.load(process.argv[2]!);
for (const [p, t] of generateVersion(m, process.argv[3]!)) { mkdirSync(`/tmp/gen/${p.split("/")[0]}`, { recursive: true }); writeFileSync(`/tmp/gen/${p}`, t); }
