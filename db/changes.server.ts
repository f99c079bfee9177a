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

export interface ChangeFeed {
  /**
   * Resolves true once every change committed before the call has reached the subscribers; false
   * when the feed cannot say (the connection is down), and then no cache may answer.
   */
  sync(): Promise<boolean>;
  /** `fn` gets each notification's payload, and null when changes may have been missed (a new connection). */
  subscribe(fn: (payload: string | null) => void): () => void;
  close(): Promise<void>;
}

export function createChangeFeed(url: string): ChangeFeed {
  const subscribers = new Set<(payload: string | null) => void>();
  const publish = (payload: string | null) => {
    for (const fn of subscribers) fn(payload);
  };
  let listening = false;
  let closed = false;
  // onnotify is postgres.js's own option (its listen() uses it), missing from its types
  const options = {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    fetch_types: false,
    connection: { application_name: CHANGES_APPLICATION_NAME },
    onnotice: () => {},
    onnotify: (channel: string, payload: string) => {
      if (channel === CHANGES_CHANNEL) publish(payload);
    },
    // whatever was committed while no connection listened went unheard: everything is forgotten
    onclose: () => {
      listening = false;
      publish(null);
    },
  };
  const client = postgres(url, options as postgres.Options<Record<string, never>>);

  async function roundTrip(): Promise<boolean> {
    try {
      if (!listening) {
        await client.unsafe(`listen ${CHANGES_CHANNEL}`);
        listening = true;
        // changes before the LISTEN were not heard: what was kept before it is forgotten
        publish(null);
        return true;
      }
      await client`select 1`;
      return listening;
    } catch {
      listening = false;
      publish(null);
      return false;
    }
  }

  let pending: Promise<boolean> | null = null;
  return {
    sync() {
      if (closed) return Promise.resolve(false);
      // joined only until it is sent: a query sent before a caller arrived proves nothing to it
      pending ??= new Promise<boolean>((resolve) =>
        setImmediate(() => {
          pending = null;
          void roundTrip().then(resolve);
        }),
      );
      return pending;
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    async close() {
      closed = true;
      await client.end({ timeout: 5 }).catch(() => {});
    },
  };
}
