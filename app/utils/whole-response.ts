/**
 * A Response whose body is one string known whole when it is made (a page rendered whole), marked
 * so the bridge that writes it to Node (server/remix-bridge.ts) writes that string at once rather
 * than reading it back through the Response's byte stream (wholeBodyOf there). The mark is a
 * global symbol: the app's build and the server's are separate bundles, neither importing the
 * other. A Response made again from this one (a copy, a changed body) carries no mark and is read
 * as any other.
 */
const WHOLE_BODY = Symbol.for("freightdesk.wholeBody");

type Marked = Response & { [WHOLE_BODY]?: string };

export function wholeResponse(body: string, init: ResponseInit): Response {
  const response: Marked = new Response(body, init);
  Object.defineProperty(response, WHOLE_BODY, { value: body });
  return response;
}

