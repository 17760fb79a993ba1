// The transport suite is published as @acpkit/conformance/transport; the transport packages' tests
// reach its build by path, since the conformance package depends on those transports (a package
// dependency back would be a cycle). turbo.json builds @acpkit/conformance before any test runs.
export * from "../packages/conformance/dist/transport/index.js";
