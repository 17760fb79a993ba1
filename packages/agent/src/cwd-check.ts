// A session's working directory is an absolute path (docs/protocol.md H10). The schemas type `cwd`
// as a plain string, so the schema check lets "src" or "" through; this answers them the way the
// schema check answers a wrong type: -32602 with the JSON path, before the agent's code sees them.
import { absolutePathProblem, ErrorCode, RpcError } from "@acpkit/core";

/** Throws RpcError(-32602) at `/cwd` unless `cwd` is absolute; `method` names the request in the message. */
export function checkCwd(method: string, cwd: string): void {
  const problem = absolutePathProblem(cwd);
  if (problem === undefined) return;
  throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: /cwd ${problem}`, { path: "/cwd", message: problem });
}
