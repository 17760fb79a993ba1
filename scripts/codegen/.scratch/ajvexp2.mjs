import Ajv2020 from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { _ } from "ajv/dist/compile/codegen/index.js";
import fs from "node:fs";
const schema = JSON.parse(fs.readFileSync("scripts/codegen/fixtures/fixture.schema.json","utf8"));
const ajv = new Ajv2020.default({ code: { source: true, esm: true, lines: true, formats: _`formats` }, discriminator: true, strict: false, allErrors: false, inlineRefs: false });
for (const f of ["int32","int64","uint16","uint32","uint64","double"]) ajv.addFormat(f, { type: "number", validate: (x)=>true });
const base = "https://acpkit.dev/schema/fx/";
function rewrite(n) { if (Array.isArray(n)) return n.map(rewrite); if (n && typeof n === "object") { const o = {}; for (const [k,v] of Object.entries(n)) { if (k === "description") continue; o[k] = k === "$ref" ? base + v.replace("#/$defs/","") : rewrite(v);} return o;} return n; }
const map = {};
for (const [k, d] of Object.entries(schema.$defs)) { ajv.addSchema({ $id: base + k, ...rewrite(d) }); map[k] = base + k; }
console.log(standaloneCode.default(ajv, map));
