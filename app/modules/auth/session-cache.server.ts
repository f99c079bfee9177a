/**
 * Signed-in users kept in memory between requests (issue 32, docs/decisions/043), so a request
 * need not load its session and user from the database every time.
 *
 * A kept session is only used after the process's change feed (db/changes.server.ts) has synced
 * from within the request. Migration 0038's triggers tell every process when any of these change:
 * a session, a user, a customer, a site or a user's sites. The sync means every change committed
 * before the request began has been heard and its sessions forgotten. So a revoked session, a
 * disabled user or customer, a role change or a customer switch takes effect on the next request,
 * on every web process. Anything the cached state does not clearly allow (expiry, idle limit,
 * last_seen_at to write) goes back to the database (sessions.server.ts).
 */
import type { Database } from "../../../db/client.server";
import type { ChangeFeed } from "../../../db/changes.server";
import type { SessionWithUser } from "./current-user.server";

/** Enough for every session a busy process serves; past it the longest kept is dropped. */
const MAX_KEPT = 10_000;

export type KeptSession = SessionWithUser & { user: NonNullable<SessionWithUser["user"]> };

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export class SessionCache {
  private readonly kept = new Map<string, KeptSession>();
  /** bumped by every change heard: a load that began before one is not kept */
  private epoch = 0;

  constructor(private readonly feed: ChangeFeed) {
    feed.subscribe((payload) => this.heard(payload));
  }

  private heard(payload: string | null) {
    this.epoch++;
    if (payload?.startsWith("sessions:")) {
      this.kept.delete(payload.slice("sessions:".length));
    } else if (payload?.startsWith("users:")) {
      const userId = Number(payload.slice("users:".length));
      for (const [id, entry] of this.kept) if (entry.user.id === userId) this.kept.delete(id);
    } else {
      this.kept.clear();
    }
  }

  /** Where a load starts: `keep` stores its result only if nothing was heard in between. */
  mark(): number {
    return this.epoch;
  }

  /** The kept session `id`, once every change committed before this call has been heard. */
  async get(id: string): Promise<KeptSession | undefined> {
    // nothing kept, nothing to vouch for: no sync
    if (!this.kept.has(id)) return undefined;
    if (!(await this.feed.sync())) return undefined;
    return this.kept.get(id);
  }

  keep(id: string, entry: KeptSession, mark: number) {
    if (mark !== this.epoch) return;
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    // shared by every request of the session: no request may change another's user
    this.kept.set(id, deepFreeze(entry));
  }

  /** How many sessions are kept (tests). */
  get size() {
    return this.kept.size;
  }
}

const caches = new WeakMap<Database, SessionCache>();

/** The process's session cache over `database`, or null where there is no change feed (PGlite). */
export function sessionCacheOf(database: Database | undefined): SessionCache | null {
  if (!database?.changes) return null;
  let cache = caches.get(database);
  if (!cache) {
    cache = new SessionCache(database.changes);
    caches.set(database, cache);
  }
  return cache;
}
