/**
 * The data Remix sends the browser with a page (its turbo-stream of loader and action data and
 * errors), read whole before the page is rendered, so that a page already rendered from the same
 * data can be answered again (server/page-memo.ts, decision 048).
 */
export interface Handoff {
  /** the data as the page carries it; empty when it was not read whole (the page is not kept) */
  text: string;
  /** the same bytes, for React to read in place of the stream read here */
  replay: ReadableStream<Uint8Array>;
}

const WAITING = Symbol("waiting");
/** Resolves once the microtasks queued now have run: data without promises has closed its stream by then. */
const afterMicrotasks = () => new Promise<typeof WAITING>((resolve) => setImmediate(resolve, WAITING));

/**
 * Remix's encoder writes data without promises as one chunk and closes the stream at once. Data
 * with promises (deferred) keeps it open until they settle: that page is not kept, and React reads
 * the rest of the stream as it comes, as it did before (its own 5 s abort still bounds it).
 */
export async function readHandoff(stream: ReadableStream<Uint8Array>): Promise<Handoff> {
  const reader = stream.getReader();
  const failed = (error: unknown): Handoff => ({ text: "", replay: new ReadableStream({ start: (controller) => controller.error(error) }) });
  let first: ReadableStreamReadResult<Uint8Array>;
  try {
    first = await reader.read();
  } catch (error) {
    // React's read of the data fails alike: the page is rendered as it was without the memo
    return failed(error);
  }
  if (first.done) return { text: "", replay: new ReadableStream({ start: (controller) => controller.close() }) };
  const pending = reader.read();
  const next = await Promise.race([pending, afterMicrotasks()]).catch((error: unknown) => ({ error }));
  if (next !== WAITING && "done" in next && next.done) {
    const chunk = first.value;
    return { text: new TextDecoder().decode(chunk), replay: new ReadableStream({ start: (controller) => (controller.enqueue(chunk), controller.close()) }) };
  }
  // still open (promises to come) or failed after its first chunk: React reads on from here
  let queued: Promise<ReadableStreamReadResult<Uint8Array>> | undefined = pending;
  const replay = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(first.value),
    async pull(controller) {
      const read = await (queued ?? reader.read());
      queued = undefined;
      if (read.done) controller.close();
      else controller.enqueue(read.value);
    },
  });
  return { text: "", replay };
}

/**
 * Values Remix's encoder writes without all they are (a function, a class instance's own fields, an
 * error sanitized to one message): a render of the data may show more than the text holds, so a
 * page whose data holds one is not kept.
 */
const LOSSY = ['"SingleFetchFallback"', '"SingleFetchClassInstance"', '"SanitizedError"'];

/**
 * What a page's HTML is made from, besides its nonce: its status, its URL (the routes it matches,
 * its search), Remix's handoff (the build's flags) and its data. Undefined when the data was not
 * read whole or holds a value written without all it is (that page is not kept).
 */
export function pageKey(status: number, url: string, handoffString: string, handoff: Handoff): string | undefined {
  if (!handoff.text || LOSSY.some((mark) => handoff.text.includes(mark))) return undefined;
  return `${status} ${url}\n${handoffString}\n${handoff.text}`;
}
