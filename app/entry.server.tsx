import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { autofocusFirstInvalid } from "./utils/autofocus-invalid";
import { NonceProvider } from "./utils/nonce";
import { pageKey, readHandoff } from "./utils/page-handoff";
import { wholeResponse } from "./utils/whole-response";

// The server, the job worker, the test server and the bench read these through
// `build.entry.module`, so the services are made by the build's own copy of the modules.
export * from "./services.server";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * Where React writes a page rendered whole: its pieces, kept until it ends. Not a stream: nothing
 * reads the page before it is whole, and a stream's close, coming after its end, made React abort
 * the finished render (an error made and thrown away on every view). React's patched writer
 * (patches/react-dom) writes strings; bytes, should it write them, are decoded as they come.
 */
function pageSink(done: (page: string) => void, failed: (error: unknown) => void) {
  const pieces: string[] = [];
  const decoder = new TextDecoder();
  const sink = {
    write(chunk: string | Uint8Array) {
      pieces.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
      return true;
    },
    end() {
      pieces.push(decoder.decode());
      done(pieces.join(""));
    },
    destroy: failed,
    // React listens for drain, error and close: a sink that never waits or fails emits none
    on: () => sink,
  };
  return sink as unknown as NodeJS.WritableStream;
}

/**
 * Every page is rendered whole and sent in one write with its length (decision 047). No page
 * suspends for data of its own (nothing is deferred); what arrives after the shell is Remix's own
 * data, a microtask later. Streamed, the page went out in several writes (chunked, each flushed
 * through compression), with React's scripts to move the late parts into place.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  // a document POST is a form sent without JavaScript: its first invalid field is autofocused
  const documentPost = request.method === "POST";
  // a page viewed again with the same data is answered as rendered then, with this view's nonce
  // (decision 048); the loaders have run for this view all the same
  const memo = documentPost || !nonce ? undefined : loadContext.pageMemo;
  let key: string | undefined;
  if (memo && remixContext.serverHandoffStream) {
    const handoff = await readHandoff(remixContext.serverHandoffStream);
    key = pageKey(responseStatusCode, request.url, remixContext.serverHandoffString ?? "", handoff);
    const kept = key === undefined ? undefined : memo.get(key);
    if (kept) {
      responseHeaders.set("Content-Type", "text/html");
      return wholeResponse(kept.join(nonce), { headers: responseHeaders, status: responseStatusCode }, loadContext.writesWholePages);
    }
    remixContext = { ...remixContext, serverHandoffStream: handoff.replay };
  }
  return new Promise<Response>((resolve, reject) => {
    // an error in any part: the page is not kept, whatever was answered
    let failed = false;
    let shellRendered = false;
    // the status as the shell was ready, as a streamed page was answered: an error in a part after
    // the shell is logged and that part left to the browser, not made a 500. A document POST was
    // always sent whole, with the status at its end.
    let shellStatus = responseStatusCode;
    // armed before the render starts (a render that never finishes is aborted too); a render that
    // throws at once leaves nothing to abort
    let abortRender = () => {};
    const timer = setTimeout(() => abortRender(), ABORT_DELAY);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
          shellStatus = responseStatusCode;
        },
        onAllReady() {
          // rendered whole: nothing left to abort. Left to run, each view's timer kept its whole
          // render alive for 5 s (hundreds at once under load, all for the collector to carry)
          clearTimeout(timer);
          pipe(
            pageSink((page) => {
              if (key !== undefined && !failed) memo!.set(key, page.split(nonce));
              responseHeaders.set("Content-Type", "text/html");
              resolve(wholeResponse(documentPost ? autofocusFirstInvalid(page) : page, { headers: responseHeaders, status: documentPost ? responseStatusCode : shellStatus }, loadContext.writesWholePages));
            }, reject),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    abortRender = abort;
  });
}
