// The launch token: 32 random bytes, URL-safe, new for every launch.
import { randomBytes } from "node:crypto";

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}
