// Ajv set up the way docs/protocol.md §0.1 prescribes for the official ACP schemas (the independent
// oracles of the tests): draft 2020-12, strict off, the integer and double formats registered, any
// string accepted for "uri". Shared so every oracle reads the official files the same way.
import { Ajv2020 } from "ajv/dist/2020.js";

function integerFormat(min: number, max: number) {
  return { type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= min && n <= max };
}

/** A fresh Ajv ready for an official ACP schema (add it with `addSchema`). */
export function officialAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addFormat("int32", integerFormat(-2147483648, 2147483647));
  ajv.addFormat("int64", integerFormat(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
  ajv.addFormat("uint16", integerFormat(0, 65535));
  ajv.addFormat("uint32", integerFormat(0, 4294967295));
  ajv.addFormat("uint64", integerFormat(0, Number.MAX_SAFE_INTEGER));
  ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat("uri", true);
  return ajv;
}
