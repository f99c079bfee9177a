/**
 * Pages already rendered, by what their HTML is made from (decision 048). A page's HTML is a
 * function of its URL, its status and the data Remix sends the browser with it: the browser
 * renders the same markup again from that data when it hydrates, so a page that depended on
 * anything else would not hydrate. A view whose URL, status and data equal an earlier view's is
 * answered that view's HTML, with its own CSP nonce (the only part of a page that is not made
 * from those). Loaders still run on every view, so the session, the user, the role and the
 * customer are read afresh each time; only React's render of data already rendered is skipped.
 *
 * One per web process, bounded by entries and characters, least recently used dropped first.
 */
export interface PageMemoLimits {
  entries: number;
  /** the keys' and pages' characters together */
  chars: number;
}

export class PageMemo {
  readonly #pages = new Map<string, string[]>();
  #chars = 0;
  #hits = 0;
  #misses = 0;

  constructor(readonly limits: PageMemoLimits = { entries: 256, chars: 8_000_000 }) {}

  /** The page made from this key, split at its nonce, if kept; it becomes the most recent. */
  get(key: string): string[] | undefined {
    const parts = this.#pages.get(key);
    if (!parts) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    this.#pages.delete(key);
    this.#pages.set(key, parts);
    return parts;
  }

  /** Keeps a page (split at its nonce); one larger than a quarter of the limit is not kept. */
  set(key: string, parts: string[]): void {
    const size = key.length + sizeOf(parts);
    if (size > this.limits.chars / 4) return;
    const known = this.#pages.get(key);
    if (known) {
      this.#pages.delete(key);
      this.#chars -= key.length + sizeOf(known);
    }
    this.#pages.set(key, parts);
    this.#chars += size;
    for (const [oldest, page] of this.#pages) {
      if (this.#pages.size <= this.limits.entries && this.#chars <= this.limits.chars) break;
      this.#pages.delete(oldest);
      this.#chars -= oldest.length + sizeOf(page);
    }
  }

  /** What it holds and how it has answered, for tests and the bench. */
  stats(): { entries: number; chars: number; hits: number; misses: number } {
    return { entries: this.#pages.size, chars: this.#chars, hits: this.#hits, misses: this.#misses };
  }
}

function sizeOf(parts: string[]): number {
  let size = 0;
  for (const part of parts) size += part.length;
  return size;
}
