import { createHash, randomBytes } from "node:crypto";

/** A random token for a cookie, link or API caller; only its SHA-256 is stored. */
export const newToken = (bytes = 32) => randomBytes(bytes).toString("base64url");
export const tokenDigest = (token: string) => createHash("sha256").update(token).digest("hex");
