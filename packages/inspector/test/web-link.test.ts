// The URL elicitation card links only to web pages (src/ui/web-link.ts).
import { describe, expect, it } from "vitest";
import { webLinkOf } from "../src/ui/web-link.js";

describe("webLinkOf", () => {
  it("links absolute http and https URLs, normalised as the browser would", () => {
    expect(webLinkOf("https://example.com/login?state=1")).toBe("https://example.com/login?state=1");
    expect(webLinkOf("HTTP://Example.com")).toBe("http://example.com/");
  });

  it("refuses every other scheme, whatever its spelling, and text that is not a URL", () => {
    for (const url of [
      "javascript:alert(document.cookie)",
      " JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "vbscript:msgbox",
      "//example.com/path",
      "/relative",
      "",
    ]) {
      expect(webLinkOf(url), url).toBeUndefined();
    }
  });
});
