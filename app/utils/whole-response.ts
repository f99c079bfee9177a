/**
 * A Response whose body is one string known whole when it is made (a page rendered whole), marked
 * so the bridge that writes it to Node (server/remix-bridge.ts) writes that string at once rather
 * than reading it back through the Response's byte stream (wholeBodyOf there). The mark is a
 * global symbol: the app's build and the server's are separate bundles, neither importing the
 * other. A Response made again from this one (a copy, a changed body) carries no mark and is read
 * as any other: a bodiless one (made for a server that says it writes the mark, writesWholePages)
 * must not be copied, and nothing between the page and the bridge copies one (Remix makes a new
 * Response only for HEAD, which sends no body).
 */
const WHOLE_BODY = Symbol.for("freightdesk.wholeBody");

type Marked = Response & { [WHOLE_BODY]?: string };

export function wholeResponse(body: string, init: ResponseInit, bodiless = false): Response {
  // bodiless when the server writes the mark itself: a body made from a string is a byte stream
  // and a scan of the whole page for lone surrogates, 3% of a page's CPU spent for no reader
  const response: Marked = new Response(bodiless ? null : body, init);
  Object.defineProperty(response, WHOLE_BODY, { value: body });
  return response;
}

