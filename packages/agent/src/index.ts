// @acpkit/agent: Serve an ACP agent to v1 and v2 clients from one implementation.
export {};
