// The implementation registry the scenarios iterate over, in the order rounds alternate through.
import type { ClientImpl, ImplName } from "./impl.js";

export async function loadImpl(name: ImplName): Promise<ClientImpl> {
  switch (name) {
    case "acpkit":
      return (await import("../impls/acpkit.js")).acpkitImpl;
    case "official":
      return (await import("../impls/official.js")).officialImpl;
    case "raw":
      return (await import("../impls/raw.js")).rawImpl;
    case "raw-naive":
      return (await import("../impls/raw.js")).rawNaiveImpl;
  }
}
