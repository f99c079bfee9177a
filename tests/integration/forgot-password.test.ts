import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { passwordResetTokens, signInAudits } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createUser } from "../../db/seed/factories";
import type { Mailer, MailMessage } from "../../app/modules/mail/mailer.server";
import { createTestDatabase, type TestDatabase } from "../support/database";

// the token maker and hasher, observed: both paths must make and hash one token
vi.mock("../../app/modules/auth/tokens.server", async (original) => {
  const real = await original<typeof import("../../app/modules/auth/tokens.server")>();
  return { newToken: vi.fn(real.newToken), tokenDigest: vi.fn(real.tokenDigest) };
});
const tokens = await import("../../app/modules/auth/tokens.server");
const { requestPasswordReset } = await import("../../app/modules/auth/auth.server");

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
  const demo = await seedDemo(test.database.db);
  await createUser(test.database.db, demo.acme.id, { email: "disabled@example.com", disabled: true });
});
afterAll(() => test.drop());

/** The database, with every statement the module starts counted by kind. */
function countingDb() {
  const calls: string[] = [];
  const db = new Proxy(test.database.db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function" || !["execute", "select", "insert", "update", "delete", "transaction"].includes(String(prop))) return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db, calls };
}

/** A mailer whose sending never finishes: an answer that waited for the mail would never come. */
function stuckMailer() {
  const sent: MailMessage[] = [];
  const mailer: Mailer = { transport: "database", send: (m) => (sent.push(m), new Promise<void>(() => {})) };
  return { mailer, sent };
}

describe("forgot password costs the same for a known and an unknown address", () => {
  beforeEach(() => vi.clearAllMocks());

  async function run(email: string) {
    vi.clearAllMocks();
    const { db, calls } = countingDb();
    const { mailer, sent } = stuckMailer();
    const result = await requestPasswordReset(db, mailer, { email }, "http://localhost");
    return {
      calls,
      sent,
      message: result.message.replace(email, "<email>"),
      tokensMade: vi.mocked(tokens.newToken).mock.calls.length,
      tokensHashed: vi.mocked(tokens.tokenDigest).mock.calls.length,
    };
  }

  it("makes and hashes one token, runs the same one statement, answers the same message, and never waits for the mail", async () => {
    const before = (await test.database.db.select().from(passwordResetTokens)).length;
    const known = await run("admin@example.com");
    const unknown = await run("ghost@example.com");
    const disabled = await run("disabled@example.com");

    for (const path of [known, unknown, disabled]) {
      expect(path.tokensMade).toBe(1);
      expect(path.tokensHashed).toBe(1);
      expect(path.calls).toEqual(["execute"]);
      expect(path.message).toBe("An email has been sent to <email>, if user exists and is permitted to reset password.");
    }
    // only the real user got a link (whose sending is still "in progress": the answer did not wait)
    expect(known.sent.map((m) => m.to)).toEqual(["admin@example.com"]);
    expect(unknown.sent).toEqual([]);
    expect(disabled.sent).toEqual([]);
    expect((await test.database.db.select().from(passwordResetTokens)).length).toBe(before + 1);
    // every path writes (its audit row), so none skips a commit's flush
    const audits = await test.database.db.select().from(signInAudits).where(eq(signInAudits.reason, "password_reset_request")).orderBy(signInAudits.id);
    expect(audits.map((a) => [a.email, a.success])).toEqual([
      ["admin@example.com", true],
      ["ghost@example.com", false],
      ["disabled@example.com", false],
    ]);
  });

  it("the link mailed is the token stored (its digest), for the real user only", async () => {
    const { mailer } = stuckMailer();
    const sent: MailMessage[] = [];
    mailer.send = async (m) => void sent.push(m);
    const result = await requestPasswordReset(test.database.db, mailer, { email: "DESPATCHER@example.com" }, "http://x/");
    await result.mail;
    const token = decodeURIComponent(sent[0]!.text.match(/token=([^\s]+)/)![1]!);
    const real = await vi.importActual<typeof import("../../app/modules/auth/tokens.server")>("../../app/modules/auth/tokens.server");
    const rows = await test.database.db.select().from(passwordResetTokens);
    expect(rows.map((r) => r.id)).toContain(real.tokenDigest(token));
    expect(sent[0]!.to).toBe("despatcher@example.com");
    expect(sent[0]!.text).toContain("http://x/reset_password?token=");
  });
});
