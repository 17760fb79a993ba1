// How the HTTP+SSE client turns the endpoint's refusals into what its caller sees (RT21): the
// endpoint's own JSON-RPC error when its body carries one, else a -32603 naming the status, with
// the body (at most ERROR_BODY_CHARS of it) as data.

/** How much of an error body is kept in the error that reports it. */
export const ERROR_BODY_CHARS = 8 * 1024;

/** The JSON-RPC error a refused request is answered with. */
export function httpError(status: number, body: string) {
  // The endpoint's own refusals carry a JSON-RPC error: keep its code and message.
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    if (typeof parsed.error?.code === "number" && typeof parsed.error.message === "string")
      return { code: parsed.error.code, message: parsed.error.message, data: { httpStatus: status } };
  } catch {}
  return { code: -32603, message: `the endpoint answered HTTP ${status}`, data: { httpStatus: status, body } };
}

/** A refused response's body, cut to ERROR_BODY_CHARS. */
export async function errorBody(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  return text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}…` : text;
}
