import { acpkitVitestConfig } from "../../vitest.shared.ts";

export default acpkitVitestConfig(import.meta.dirname);
