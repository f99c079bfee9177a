import { describe, expect, it } from "vitest";
import { sharedFirstRows } from "./first-rows";

/** A read that records each limit it was asked for and answers that many rows. */
function counting() {
  const limits: number[] = [];
  const read = async (limit: number) => {
    limits.push(limit);
    return Array.from({ length: limit }, (_, i) => i);
  };
  return { limits, read };
}

describe("sharedFirstRows", () => {
  it("reads once, at the most asked for, for the callers of one request in the same turn", async () => {
    const { limits, read } = counting();
    const request = {};
    const [shell, home] = await Promise.all([sharedFirstRows(request, 7, 5, read), sharedFirstRows(request, 7, 20, read)]);
    expect(limits).toEqual([20]);
    expect(shell).toBe(home);
    expect(home).toHaveLength(20);
  });

  it("reads again for a caller that asks for more once the read has begun, and shares with one asking for less", async () => {
    const { limits, read } = counting();
    const request = {};
    expect(await sharedFirstRows(request, 7, 5, read)).toHaveLength(5);
    expect(await sharedFirstRows(request, 7, 3, read)).toHaveLength(5);
    expect(limits).toEqual([5]);
    expect(await sharedFirstRows(request, 7, 40, read)).toHaveLength(40);
    expect(limits).toEqual([5, 40]);
  });

  it("shares nothing between requests or users", async () => {
    const { limits, read } = counting();
    const one = {};
    await Promise.all([sharedFirstRows(one, 7, 5, read), sharedFirstRows({}, 7, 5, read), sharedFirstRows(one, 8, 5, read)]);
    expect(limits).toEqual([5, 5, 5]);
  });

  it("passes a failed read to every caller that shared it", async () => {
    const request = {};
    const failing = async () => {
      throw new Error("database gone");
    };
    const results = await Promise.allSettled([sharedFirstRows(request, 7, 5, failing), sharedFirstRows(request, 7, 20, failing)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
