/**
 * Changes other connections committed, heard by this process (issue 32): one PostgreSQL connection
 * that LISTENs on the channel the triggers of migration 0038 notify, for a cache that must never
 * answer with what was true before a change committed, on whichever process or host serves next.
 *
 * `sync()` is what makes that exact. It sends a trivial query on the listening connection and
 * resolves when its answer comes back. PostgreSQL sends a listener the notifications of every
 * transaction that committed before it reads the query, ahead of the query's answer, and they are
 * handed to the subscribers as they are read. So once `sync()` started after a request began has
 * resolved true, every change committed before that request has been heard. Requests that ask in
 * the same turn of the event loop share one query.
 */
import postgres from "postgres";

export const CHANGES_CHANNEL = "freightdesk_changes";
/** The listening connection's name in pg_stat_activity. */
export const CHANGES_APPLICATION_NAME = "freightdesk changes";

/** A point in the feed's syncs (ChangeFeed.mark). */
export type FeedMark = number & { readonly __feedMark: unique symbol };

export interface ChangeFeed {
  /**
   * Resolves true once every change committed before the call has reached the subscribers; false
   * when the feed cannot say (the connection is down), and then no cache may answer.
   */
  sync(): Promise<boolean>;
  /** `fn` gets each notification's payload, and null when changes may have been missed (a new connection). */
  subscribe(fn: (payload: string | null) => void): () => void;
  /**
   * Where a request stands in the feed: taken when it begins (before it authenticates), and
   * handed to `heardSince` later in the same request.
   */
  mark(): FeedMark;
  /**
   * True once a sync sent after `mark` was taken has resolved true: every change committed before
   * the mark has been heard, and a later read in the same request needs no sync of its own.
   */
  heardSince(mark: FeedMark): boolean;
  close(): Promise<void>;
}

/**
 * How long a round trip may take before the feed counts its connection as lost. A request waits
 * this long at most: then no cache answers it, and the next one starts on a new connection.
 */
export const SYNC_TIMEOUT_MS = 2000;

export function createChangeFeed(url: string): ChangeFeed {
  const subscribers = new Set<(payload: string | null) => void>();
  const publish = (payload: string | null) => {
    for (const fn of subscribers) fn(payload);
  };
  let closed = false;

  // One connection at a time, never reused once it has closed: a postgres.js client whose listening
  // connection was terminated (a failover, a pooler restart, pg_terminate_backend) could leave the
  // next LISTEN waiting on it for good, and with it every request that asks the feed.
  type Listener = { sql: postgres.Sql; listening: boolean; lost: boolean };
  let current: Listener | null = null;
  const open = (): Listener => {
    const listener: Listener = { sql: null as never, listening: false, lost: false };
    // onnotify and onclose are postgres.js's own options (its listen() uses them), missing from its types
    const options = {
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      fetch_types: false,
      connection: { application_name: CHANGES_APPLICATION_NAME },
      onnotice: () => {},
      onnotify: (channel: string, payload: string) => {
        if (channel === CHANGES_CHANNEL && listener === current) publish(payload);
      },
      // whatever was committed while no connection listened went unheard: everything is forgotten
      onclose: () => lose(listener),
    };
    listener.sql = postgres(url, options as postgres.Options<Record<string, postgres.PostgresType>>);
    return listener;
  };
  const lose = (listener: Listener) => {
    if (listener.lost) return;
    listener.lost = true;
    listener.listening = false;
    if (listener === current) {
      current = null;
      publish(null);
    }
    void listener.sql.end({ timeout: 0 }).catch(() => {});
  };

  async function roundTrip(): Promise<boolean> {
    const listener = (current ??= open());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => {
        lose(listener);
        resolve(false);
      }, SYNC_TIMEOUT_MS);
    });
    const trip = (async () => {
      try {
        if (!listener.listening) {
          await listener.sql.unsafe(`listen ${CHANGES_CHANNEL}`);
          if (listener.lost) return false;
          listener.listening = true;
          // changes before the LISTEN were not heard: what was kept before it is forgotten
          publish(null);
          return true;
        }
        await listener.sql`select 1`;
        return listener.listening && !listener.lost;
      } catch {
        lose(listener);
        return false;
      }
    })();
    try {
      return await Promise.race([trip, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  let pending: Promise<boolean> | null = null;
  // syncs sent, and the latest of them known to have heard everything before it was sent
  let sent = 0;
  let heard = 0;
  return {
    sync() {
      if (closed) return Promise.resolve(false);
      // joined only until it is sent: a query sent before a caller arrived proves nothing to it
      pending ??= new Promise<boolean>((resolve) =>
        setImmediate(() => {
          pending = null;
          const trip = ++sent;
          void roundTrip().then((ok) => {
            if (ok && current && !current.lost) heard = Math.max(heard, trip);
            resolve(ok);
          });
        }),
      );
      return pending;
    },
    mark: () => sent as FeedMark,
    heardSince: (mark) => !closed && current !== null && !current.lost && heard > mark,
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    async close() {
      closed = true;
      const listener = current;
      current = null;
      if (listener) {
        listener.lost = true;
        await listener.sql.end({ timeout: 5 }).catch(() => {});
      }
    },
  };
}
