/**
 * The data Remix sends the browser with a page (its turbo-stream of loader and action data and
 * errors), read whole before the page is rendered, so that a page already rendered from the same
 * data can be answered again (server/page-memo.ts, decision 048).
 */
export interface Handoff {
  /** the data as the page carries it */
  text: string;
  /** the same bytes, for React to read in place of the stream read here */
  replay: ReadableStream<Uint8Array>;
}

export async function readHandoff(stream: ReadableStream<Uint8Array>): Promise<Handoff> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks.push(read.value);
      text += decoder.decode(read.value, { stream: true });
    }
  } catch (error) {
    // the page is rendered as it was without the memo: React's read of the data fails alike
    return { text: "", replay: new ReadableStream({ start: (controller) => controller.error(error) }) };
  }
  text += decoder.decode();
  const replay = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return { text, replay };
}

/**
 * What a page's HTML is made from, besides its nonce: its status, its URL (the routes it matches,
 * its search), Remix's handoff (the build's flags) and its data. Undefined when the data could not
 * be read (that page is not kept).
 */
export function pageKey(status: number, url: string, handoffString: string, handoff: Handoff): string | undefined {
  if (!handoff.text) return undefined;
  return `${status} ${url}\n${handoffString}\n${handoff.text}`;
}
