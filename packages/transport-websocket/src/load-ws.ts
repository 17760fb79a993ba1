// `ws` is loaded by the first connect() or listen(), not when this package is imported. Loaded
// through Node's CommonJS interop it is the largest part of this package's import (docs/performance.md, "Import and cold start"), and
// an application that imports every transport but talks to its agent over stdio (the `acpkit`
// CLI is one) should not pay that on every start.

type Ws = typeof import("ws");

let loading: Promise<Ws> | undefined;

/** The `ws` module, loaded once, on first use. */
export function loadWs(): Promise<Ws> {
  loading ??= import("ws");
  return loading;
}
