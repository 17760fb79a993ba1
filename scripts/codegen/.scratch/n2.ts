declare const brand: unique symbol;
interface UnknownTag extends String { readonly [brand]: true }
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
  return 0;
}
export const c: S = { t: "_x" as unknown as UnknownTag };
