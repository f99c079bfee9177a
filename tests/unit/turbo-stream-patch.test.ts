import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * patches/turbo-stream: the server's encoder (the CommonJS build, which Remix's server runtime
 * loads) writes a string, number or boolean without going through its generic stringify, and an
 * object's parts without a closure, a map and a join per value. The ES build (the browser's) is
 * not patched, so it is the reference: both must write every value byte for byte alike.
 */
const require = createRequire(import.meta.url);
type TurboStream = typeof import("turbo-stream");
const cjs = require("turbo-stream") as TurboStream;
const dist = path.dirname(require.resolve("turbo-stream"));

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

const shared = { id: 7, name: "Shared" };
const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, "b\"c": "d" });
const hole = [1, , 3]; // eslint-disable-line no-sparse-arrays
const VALUES: Array<[string, unknown]> = [
  ["a page's loader data", {
    loaderData: {
      "routes/_app+/_layout": { user: { id: 1, fullName: "Dana Despatcher", canBook: false, canExport: false, customer: { name: "Acme", status: "LIVE" } }, unseen: 3, latestNotices: [{ id: 1, header: "Welcome", content: "<p>a &amp; b</p>", seen: false }] },
      "routes/_app+/_index": { variant: "consignment", today: "2026-11-30", pickupDefault: null, sites: [shared, shared, { ...shared, id: 8 }], items: [], weight: 12.5, neg: -3, big: 1e21 },
    },
    actionData: null,
    errors: undefined,
  }],
  // -0 before any 0: after one, the encoder's map (SameValueZero) finds 0's index for it, patched or not
  ["primitives and their special cases", [-0, 0, 1, -1.5, NaN, Infinity, -Infinity, true, false, "", "0", "true", null, undefined, "é 中 😀 \"q\" \\ \n\u2028"]],
  ["the same values repeated", { a: "x", b: "x", c: 1, d: 1, e: [shared, shared], f: shared, x: "a" }],
  ["holes, dates, URLs, regular expressions, sets and maps", { hole, date: new Date("2026-11-30T01:02:03Z"), url: new URL("https://example.com/a?b=1"), re: /a+b/gi, set: new Set(["a", 1, shared]), map: new Map<unknown, unknown>([["k", "v"], [shared, 2]]), empty: { set: new Set(), map: new Map() } }],
  ["an object without a prototype, errors, symbols and bigints", { nullProto, error: new TypeError("bad \"thing\""), plain: new Error("plain"), sym: Symbol.for("fd"), big: 12345678901234567890n }],
  ["a value on its own", "just a string"],
  ["a number on its own", 42],
];

describe("turbo-stream's encoder (patched)", () => {
  it("is the patched encoder the server loads", () => {
    expect(readFileSync(path.join(dist, "flatten.js"), "utf8")).toContain("freightdesk patch");
    expect(readFileSync(path.join(dist, "turbo-stream.mjs"), "utf8")).not.toContain("freightdesk patch");
  });

  it.each(VALUES)("writes %s as the unpatched encoder does, and reads back the same", async (_what, value) => {
    const esm = (await import(/* @vite-ignore */ path.join(dist, "turbo-stream.mjs"))) as TurboStream;
    const patched = await text(cjs.encode(value));
    expect(patched).toBe(await text(esm.encode(value)));
    const decoded = await cjs.decode(new Response(patched).body!.pipeThrough(new TextDecoderStream()).pipeThrough(new TextEncoderStream()));
    await decoded.done;
    expect(decoded.value).toEqual(value);
  });

  it("writes promises resolved later as the unpatched encoder does", async () => {
    const esm = (await import(/* @vite-ignore */ path.join(dist, "turbo-stream.mjs"))) as TurboStream;
    const make = () => ({ now: "a", later: Promise.resolve({ b: "a", c: [1, 2] }), failed: Promise.reject(new Error("no")) });
    expect(await text(cjs.encode(make()))).toBe(await text(esm.encode(make())));
  });
});
