import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readConfig } from "../config";
import { setting } from "../config";

/**
 * Judge API keys are encrypted at rest with AES-256-GCM. The key is derived
 * (SHA-256) from BATON_SECRET when set (set it on every machine that runs
 * judge workers), else from a random secret generated once and kept in
 * `<BATON_DATA_DIR>/secret` (mode 0600). Losing the secret only means
 * re-entering the judges' keys.
 */
let cached: Buffer | null = null;

function secretKey(): Buffer {
  if (cached) return cached;
  const fromEnv = setting("BATON_SECRET");
  let secret: string;
  if (fromEnv && fromEnv.length > 0) secret = fromEnv;
  else {
    const file = path.join(readConfig().BATON_DATA_DIR, "secret");
    try {
      secret = readFileSync(file, "utf8").trim();
    } catch {
      mkdirSync(path.dirname(file), { recursive: true });
      try {
        // 'wx': two processes starting at once keep the first one's secret
        writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
      } catch {
        /* written by another process meanwhile */
      }
      secret = readFileSync(file, "utf8").trim();
    }
  }
  cached = createHash("sha256").update(secret).digest();
  return cached;
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
}

export function decryptSecret(sealed: string): string {
  const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !body) throw new Error("malformed sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", secretKey(), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}
