// Two facts about JSON values every acpkit package needs. They live in the small `methods` entry
// (which @acpkit/core loads at startup and re-exports); the modules of the lazy entry import them
// from there, so the two entries share one copy.
export { isJsonObject, ownEntry } from "./methods.js";
