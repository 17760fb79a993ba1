// How the CLI names a WebSocket address in what it prints: without its query and fragment. An
// access_token may stand in the query (the form browsers must use), and messages end up in logs.
// A module of its own so that naming an address loads no WebSocket code.

/** `url` without its query and fragment: `ws://127.0.0.1:8765/acp?access_token=…` → `ws://127.0.0.1:8765/acp`. */
export function addressLabel(url: string): string {
  return url.replace(/[?#].*$/s, "");
}

/** Whether `url` parses as a `ws://` or `wss://` URL (checked before anything is started with it). */
export function isWebSocketUrl(url: string): boolean {
  if (!/^wss?:\/\//i.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}
