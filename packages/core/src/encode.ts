// One way for every transport to turn an outgoing message into wire text, so a value JSON cannot
// carry (a cycle, a BigInt, `undefined` at the top) fails the same way everywhere: at the
// caller's `send()`, as AcpError "InvalidMessage", with nothing half-written.
import { AcpError } from "./errors.js";

/**
 * `JSON.stringify(message)`, or an `AcpError("InvalidMessage")` saying why the message cannot be
 * sent. Transports call it inside `send()` and reject with the error it throws.
 */
export function encodeMessage(message: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    throw new AcpError("InvalidMessage", `message cannot be serialized as JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof text !== "string") {
    throw new AcpError("InvalidMessage", `message cannot be serialized as JSON: got ${typeof message}`);
  }
  return text;
}
