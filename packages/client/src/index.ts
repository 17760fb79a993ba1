// @acpkit/client: Drive an ACP agent (v1 or v2) with one session model.
export {};
