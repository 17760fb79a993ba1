// @acpkit/transport-memory: A linked in-process transport pair for ACP tests and embedding.
export {};
