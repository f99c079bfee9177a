import { describe, expect, it } from "vitest";
import { pageKey, readHandoff } from "../../app/utils/page-handoff";
import { PageMemo } from "../../server/page-memo";

/** server/page-memo.ts and app/utils/page-handoff.ts (decision 048): what is kept, for how long, by what key. */
describe("the pages kept by a web process", () => {
  it("answers a kept page by its key and drops the least recently used beyond its entries", () => {
    const memo = new PageMemo({ entries: 2, chars: 1_000 });
    memo.set("a", ["<p>", "a</p>"]);
    memo.set("b", ["<p>b</p>"]);
    expect(memo.get("a")).toEqual(["<p>", "a</p>"]);
    memo.set("c", ["<p>c</p>"]);
    // b was the least recently used (a was read after it)
    expect(memo.get("b")).toBeUndefined();
    expect(memo.get("a")).toEqual(["<p>", "a</p>"]);
    expect(memo.get("c")).toEqual(["<p>c</p>"]);
    expect(memo.stats()).toMatchObject({ entries: 2, hits: 3, misses: 1 });
  });

  it("holds no more characters than its limit, keys included, and keeps no page larger than a quarter of it", () => {
    const memo = new PageMemo({ entries: 100, chars: 100 });
    memo.set("k1", ["x".repeat(20)]);
    memo.set("k2", ["y".repeat(20)]);
    memo.set("k3", ["z".repeat(20)]);
    memo.set("k4", ["w".repeat(20)]);
    memo.set("k5", ["v".repeat(20)]);
    expect(memo.stats().chars).toBeLessThanOrEqual(100);
    expect(memo.get("k1")).toBeUndefined();
    expect(memo.get("k5")).toEqual(["v".repeat(20)]);
    memo.set("big", ["b".repeat(30)]);
    expect(memo.get("big")).toBeUndefined();
    // a page kept again under its key replaces it and is counted once
    const before = memo.stats().chars;
    memo.set("k5", ["u".repeat(20)]);
    expect(memo.stats().chars).toBe(before);
    expect(memo.get("k5")).toEqual(["u".repeat(20)]);
  });

  it("reads Remix's data whole and gives React the same bytes to read", async () => {
    const bytes = new TextEncoder().encode('[{"_1":2},"é中"]\n');
    const handoff = await readHandoff(new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }));
    expect(handoff.text).toBe('[{"_1":2},"é中"]\n');
    expect(await new Response(handoff.replay).text()).toBe(handoff.text);
    // the key holds the status, the URL, the handoff and the data: each apart
    const key = pageKey(200, "http://x/a?b=1", "{}", handoff);
    expect(key).toBeDefined();
    expect(key).not.toBe(pageKey(404, "http://x/a?b=1", "{}", handoff));
    expect(key).not.toBe(pageKey(200, "http://x/a?b=2", "{}", handoff));
    expect(key).not.toBe(pageKey(200, "http://x/a?b=1", '{"f":1}', handoff));
    expect(key).not.toBe(pageKey(200, "http://x/a?b=1", "{}", { ...handoff, text: "[1]\n" }));
  });

  it("does not wait for data still to come (promises): that page is not kept, and React reads every byte as it comes", async () => {
    let later!: () => void;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('[{"_1":2},["P",2]]\n'));
        later = () => (c.enqueue(new TextEncoder().encode("P2:[3]\n")), c.close());
      },
    });
    const handoff = await readHandoff(stream);
    expect(pageKey(200, "http://x/", "{}", handoff)).toBeUndefined();
    later();
    expect(await new Response(handoff.replay).text()).toBe('[{"_1":2},["P",2]]\nP2:[3]\n');
  });

  it("keeps no page whose data holds a value written without all it is (a function, a class instance, an error)", async () => {
    for (const mark of ['["SingleFetchFallback"]', '["SingleFetchClassInstance",{}]', '["SanitizedError","Error","Unexpected Server Error"]']) {
      const bytes = new TextEncoder().encode(`[{"_1":2},"data",${mark}]\n`);
      const handoff = await readHandoff(new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }));
      expect(handoff.text).toContain(mark);
      expect(pageKey(200, "http://x/", "{}", handoff)).toBeUndefined();
    }
  });

  it("keeps no page whose data could not be read, and lets React's read fail as it would have", async () => {
    const failing = new ReadableStream<Uint8Array>({ start: (c) => c.error(new Error("Cannot encode function")) });
    const handoff = await readHandoff(failing);
    expect(pageKey(200, "http://x/", "{}", handoff)).toBeUndefined();
    await expect(handoff.replay.getReader().read()).rejects.toThrow("Cannot encode function");
  });
});
