declare const brand: unique symbol;
type UnknownTag = string & { readonly [brand]: true };
interface A { t: "a"; x: number }
interface B { t: "b"; y: number }
interface U { t: UnknownTag; [key: string]: unknown }
type S = A | B | U;
export function f(s: S) {
  switch (s.t) {
    case "a": return s.x;
    case "b": return s.y;
    default: { const u: U = s; return u; }
  }
}
interface U2 { t: UnknownTag; }
type S2 = A | B | U2;
export function g(s: S2) {
  switch (s.t) {
    case "a": return s.x;
    default: return 0;
  }
}
