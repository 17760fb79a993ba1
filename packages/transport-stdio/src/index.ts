// @acpkit/transport-stdio: Newline-delimited JSON over a child process or the process's own stdio, for ACP.
export {};
