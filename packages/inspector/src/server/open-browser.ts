// Opening the printed URL in the user's default browser, best effort: a machine without one (a
// server, CI) just keeps the printed line.
import { spawn } from "node:child_process";

/** The platform's opener and its arguments for `url`. */
export function openerFor(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === "darwin") return ["open", [url]];
  // `start` is a cmd built-in; the empty title argument keeps the URL from being taken as one.
  if (platform === "win32") return ["cmd", ["/c", "start", "", url.replace(/&/g, "^&")]];
  return ["xdg-open", [url]];
}

/** Start the opener detached; failures are reported to `log`, never thrown. */
export function openBrowser(url: string, log: (message: string) => void): void {
  const [command, args] = openerFor(url);
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", (error) => log(`could not open a browser (${error.message}); open the URL yourself`));
    child.unref();
  } catch (error) {
    log(`could not open a browser (${(error as Error).message}); open the URL yourself`);
  }
}
