// Vitest setup for every package: import @acpkit/schema's root entry, which loads both protocol
// versions' validators, so tests that drive a Connection themselves can call setVersion at once.
// The runtimes' own on-demand loading (@acpkit/schema/lazy) is tested in fresh processes
// (packages/client/test/lazy-validators.test.ts), where nothing is loaded up front.
import "@acpkit/schema";
