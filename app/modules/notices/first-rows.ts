interface FirstRows<T> {
  userId: number;
  limit: number;
  started: boolean;
  read: Promise<T>;
}
const reads = new WeakMap<object, FirstRows<unknown>>();

/**
 * One read of a user's first rows for the callers of one request that ask within the same turn of
 * the event loop (issue 32): the shell's loader (five notices, on every page) and /home's (its
 * list) run side by side and read the same rows. The read waits for that turn to end and takes the
 * most any caller asked for; each caller then takes its own first rows from it. A caller asking
 * for more once the read has begun reads on its own. `request` is the request's load context, so
 * nothing outlives the request and no other request or user shares it.
 */
export function sharedFirstRows<T>(request: object, userId: number, limit: number, read: (limit: number) => Promise<T>): Promise<T> {
  let shared = reads.get(request) as FirstRows<T> | undefined;
  if (!shared || shared.userId !== userId || (shared.started && shared.limit < limit)) {
    const made = { userId, limit, started: false } as FirstRows<T>;
    made.read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      made.started = true;
      return read(made.limit);
    });
    reads.set(request, made);
    shared = made;
  } else if (!shared.started) {
    shared.limit = Math.max(shared.limit, limit);
  }
  return shared.read;
}
