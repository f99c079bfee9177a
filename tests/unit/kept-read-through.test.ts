/**
 * readThrough (db/kept.server.ts), the read every kept value goes through: a value is loaded once
 * and answered from memory after, but never when a change was heard while it loaded, when a change
 * since has touched it, or when the feed cannot vouch that every change has been heard.
 */
import { describe, expect, it } from "vitest";
import type { ChangeFeed, FeedMark } from "../../db/changes.server";
import { FeedKept, readThrough } from "../../db/kept.server";

/** A feed whose notifications the test sends, and whose sync answers what the test says. */
function fakeFeed() {
  const subscribers = new Set<(payload: string | null) => void>();
  let syncs = 0;
  const feed = {
    syncOk: true,
    sync: async () => {
      syncs++;
      return feed.syncOk;
    },
    subscribe(fn: (payload: string | null) => void) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    mark: () => syncs as FeedMark,
    heardSince: (mark: FeedMark) => feed.syncOk && syncs > mark,
    close: async () => {},
    send: (payload: string | null) => subscribers.forEach((fn) => fn(payload)),
  };
  return feed;
}

function counting<V>(value: () => V) {
  const load = async () => {
    load.calls++;
    return value();
  };
  load.calls = 0;
  return load;
}

describe("readThrough", () => {
  it("without a feed loads every time", async () => {
    const load = counting(() => ({ n: 1 }));
    await readThrough(null, "a", load);
    await readThrough(null, "a", load);
    expect(load.calls).toBe(2);
  });

  it("loads once and answers the kept value, frozen, until a change touches it", async () => {
    const feed = fakeFeed();
    const kept = new FeedKept<string, { n: number }>(feed as unknown as ChangeFeed, (payload, map) => map.delete(payload));
    let n = 1;
    const load = counting(() => ({ n }));
    expect(await readThrough(kept, "a", load)).toEqual({ n: 1 });
    const again = await readThrough(kept, "a", load);
    expect(load.calls).toBe(1);
    expect(Object.isFrozen(again)).toBe(true);
    n = 2;
    feed.send("b");
    expect(await readThrough(kept, "a", load)).toEqual({ n: 1 });
    feed.send("a");
    expect(await readThrough(kept, "a", load)).toEqual({ n: 2 });
    expect(load.calls).toBe(2);
  });

  it("keeps nothing when the load answers undefined, or when a change was heard while it loaded", async () => {
    const feed = fakeFeed();
    const kept = new FeedKept<string, number>(feed as unknown as ChangeFeed, () => {});
    const none = counting((): number | undefined => undefined);
    await readThrough(kept, "a", none);
    await readThrough(kept, "a", none);
    expect(none.calls).toBe(2);
    const racing = counting(() => {
      // a change commits while the row is read: what was read may be the row before it
      feed.send("x");
      return 5;
    });
    await readThrough(kept, "b", racing);
    await readThrough(kept, "b", racing);
    expect(racing.calls).toBe(2);
    expect(kept.size).toBe(0);
  });

  it("answers nothing kept while the feed cannot vouch for every change, and with the request's mark needs no sync of its own", async () => {
    const feed = fakeFeed();
    const kept = new FeedKept<string, number>(feed as unknown as ChangeFeed, () => {});
    const load = counting(() => 7);
    await readThrough(kept, "a", load);
    feed.syncOk = false;
    expect(await readThrough(kept, "a", load)).toBe(7);
    expect(load.calls).toBe(2);
    feed.syncOk = true;
    const since = feed.mark();
    await feed.sync();
    let synced = 0;
    const sync = feed.sync;
    feed.sync = async () => {
      synced++;
      return sync();
    };
    expect(await readThrough(kept, "a", load, since)).toBe(7);
    expect(synced).toBe(0);
    expect(load.calls).toBe(2);
  });
});
