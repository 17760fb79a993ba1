import { defineConfig, mergeConfig } from "vitest/config";
import { acpkitVitestConfig } from "../vitest.shared.ts";

// The examples' own checks (test/) and the conformance example, a test file users copy (conformance/).
export default mergeConfig(acpkitVitestConfig(import.meta.dirname), defineConfig({ test: { include: ["test/**/*.test.ts", "conformance/**/*.test.ts"] } }));
