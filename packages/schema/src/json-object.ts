// Three facts about JSON values every acpkit package needs. They live in the small `methods` entry
// (whose copy in @acpkit/core's bundle core re-exports); the modules of the lazy entry import them
// from there, so the schema package's two entries share one copy.
export { isJsonObject, ownEntry, setOwnField } from "./methods.js";
