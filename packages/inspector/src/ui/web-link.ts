// A URL elicitation names a page for the user to open. The URL is the agent's choice and the
// schema only asks for a URI, so it may be `javascript:…` (meant to run in the inspector's page,
// next to the token that drives the session), `data:…`, `file:…` or anything else. The page's
// CSP already refuses script URLs; the inspector does not lean on that alone and makes a link of
// http and https addresses only. Anything else is shown as text.

/** `url` as a link target when it is an absolute http or https URL, else undefined. */
export function webLinkOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
}
