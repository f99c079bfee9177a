/**
 * The change feed (db/changes.server.ts) after its listening connection is cut, as a failover, a
 * pooler restart or pg_terminate_backend cuts it: every sync settles (a request never waits on a
 * dead connection), the feed listens again on a new connection, and hears what commits after.
 * Needs PostgreSQL (DATABASE_URL): PGlite has no feed.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGES_APPLICATION_NAME, CHANGES_CHANNEL, SYNC_TIMEOUT_MS, createChangeFeed, type ChangeFeed } from "../../db/changes.server";
import { createTestDatabase } from "../support/database";

const url = process.env.DATABASE_URL;
let test: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: postgres.Sql;
let feed: ChangeFeed;
const heard: (string | null)[] = [];

beforeAll(async () => {
  if (!url) return;
  test = await createTestDatabase();
  admin = postgres(test.database.url!, { max: 1, onnotice: () => {} });
  feed = createChangeFeed(test.database.url!);
  feed.subscribe((payload) => heard.push(payload));
});
afterAll(async () => {
  await feed?.close();
  await admin?.end();
  await test?.drop();
});

/** What a sync answers, or "hung" when it has not settled well after the feed's own bound. */
const settled = (p: Promise<boolean>) => Promise.race([p, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), SYNC_TIMEOUT_MS + 3000))]);

const cut = () => admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ${CHANGES_APPLICATION_NAME}`;

describe.skipIf(!url)("the change feed when its connection is cut", () => {
  it("settles every sync, listens again on a new connection and hears what commits after, cut after cut", async () => {
    expect(await settled(feed.sync())).toBe(true);
    for (let round = 0; round < 8; round++) {
      // one sync in flight as the connection goes, and two after it
      const during = feed.sync();
      await cut();
      const answers = [await settled(during), await settled(feed.sync()), await settled(feed.sync())];
      expect(answers, `round ${round}`).not.toContain("hung");
      // listening again: a change committed now is heard before the next sync answers
      let listening = answers.at(-1) === true;
      for (let tries = 0; !listening && tries < 5; tries++) listening = (await settled(feed.sync())) === true;
      expect(listening, `round ${round}`).toBe(true);
      heard.length = 0;
      await admin`select pg_notify(${CHANGES_CHANNEL}, ${`round:${round}`})`;
      expect(await settled(feed.sync())).toBe(true);
      expect(heard).toContain(`round:${round}`);
    }
  });
});
