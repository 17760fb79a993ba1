declare const brand: unique symbol;
interface ReservedTag extends String { readonly [brand]: true }
type UnknownTag = `_${string}` | ReservedTag;
interface A { t: "a"; x: number }
interface B { t: "b"; y: number }
interface U { t: UnknownTag; [key: string]: unknown }
type S = A | B | U;
export function f(s: S) {
  switch (s.t) {
    case "a": return s.x;
    case "b": return s.y;
    default: { const u: U = s; return u.t.startsWith("_"); }
  }
}
export function g(s: S) {
  if (s.t === "a") return s.x;
  if (s.t === "_acpkit/mode") { const u: U = s; return u["mode"]; }
  return 0;
}
export const c: S = { t: "_x", extra: 1 };
export const arr: S[] = [{ t: "a", x: 1 }, { t: "_y" }];
// @ts-expect-error
export const bad: S = { t: "zzz" };
