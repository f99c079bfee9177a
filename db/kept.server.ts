/**
 * Rows kept in a process's memory and never served once a change to them has committed
 * (docs/decisions/043). A kept value is only answered after the change feed (changes.server.ts) has
 * synced from within the caller's request, so every change committed before the request began has
 * been heard and `forget` has dropped what it touched. A load that began before something was heard
 * is not kept. Kept values are deep-frozen; callers copy what they would change.
 */
import type { ChangeFeed, FeedMark } from "./changes.server";

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export class FeedKept<K, V> {
  private readonly kept = new Map<K, V>();
  /** bumped by every change heard: a load that began before one is not kept */
  private epoch = 0;

  /**
   * `forget` reads a notification's payload and drops what it touches from `kept` (its own
   * entries); null (changes may have been missed) always forgets everything.
   */
  constructor(
    private readonly feed: ChangeFeed,
    private readonly forget: (payload: string, kept: Map<K, V>) => void,
    private readonly maxKept = 10_000,
  ) {
    feed.subscribe((payload) => {
      this.epoch++;
      if (payload === null) this.kept.clear();
      else this.forget(payload, this.kept);
    });
  }

  /** Where a load starts: `keep` stores its result only if nothing was heard in between. */
  mark(): number {
    return this.epoch;
  }

  /** The value kept for `key`, once every change committed before this call has been heard. */
  async get(key: K): Promise<V | undefined> {
    // nothing kept, nothing to vouch for: no sync
    if (!this.kept.has(key)) return undefined;
    if (!(await this.feed.sync())) return undefined;
    return this.kept.get(key);
  }

  /**
   * The value kept for `key` with no sync of its own when the request that took `since` (at its
   * start) has already synced the feed since; else as `get`.
   */
  async getSince(key: K, since: FeedMark | undefined): Promise<V | undefined> {
    if (!this.kept.has(key)) return undefined;
    if (since !== undefined && this.feed.heardSince(since)) return this.kept.get(key);
    return this.get(key);
  }

  keep(key: K, value: V, mark: number) {
    if (mark !== this.epoch) return;
    if (this.kept.size >= this.maxKept) this.kept.delete(this.kept.keys().next().value!);
    // shared by every request: no request may change another's
    this.kept.set(key, deepFreeze(value));
  }

  get size() {
    return this.kept.size;
  }
}

/**
 * `load`'s value for `key`, answered from `kept` while no change has touched it: the read every
 * kept value goes through. With `since` (the request's mark, taken as it began) no sync of its own
 * once the request has synced the feed. Without a feed (`kept` null: PGlite, a transaction) it is
 * `load` every time; a load answering undefined (no such row) keeps nothing.
 */
export async function readThrough<K, V>(kept: FeedKept<K, V> | null, key: K, load: () => Promise<V | undefined>, since?: FeedMark): Promise<V | undefined> {
  if (!kept) return load();
  const known = await kept.getSince(key, since);
  if (known !== undefined) return known;
  const mark = kept.mark();
  const value = await load();
  if (value !== undefined) kept.keep(key, value, mark);
  return value;
}

/** One FeedKept per database handle and purpose, made at first use; none without a change feed (PGlite). */
export function keptPer<K, V>(forget: (payload: string, kept: Map<K, V>) => void) {
  const made = new WeakMap<ChangeFeed, FeedKept<K, V>>();
  return (feed: ChangeFeed | undefined): FeedKept<K, V> | null => {
    if (!feed) return null;
    let kept = made.get(feed);
    if (!kept) {
      kept = new FeedKept(feed, forget);
      made.set(feed, kept);
    }
    return kept;
  };
}
