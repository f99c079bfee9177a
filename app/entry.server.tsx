import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { autofocusFirstInvalid } from "./utils/autofocus-invalid";
import { NonceProvider } from "./utils/nonce";

// The server, the job worker, the test server and the bench read these through
// `build.entry.module`, so the services are made by the build's own copy of the modules.
export * from "./services.server";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * Every page is rendered whole and sent in one write with its length (decision 047). No page
 * suspends for data of its own (nothing is deferred); what arrives after the shell is Remix's own
 * data, a microtask later. Streamed, the page went out in several writes (chunked, each flushed
 * through compression), with React's scripts to move the late parts into place.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  // a document POST is a form sent without JavaScript: its first invalid field is autofocused
  const documentPost = request.method === "POST";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
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
        },
        onAllReady() {
          // rendered whole: nothing left to abort. Left to run, each view's timer kept its whole
          // render alive for 5 s (hundreds at once under load, all for the collector to carry)
          clearTimeout(timer);
          const body = new PassThrough();
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("end", () => {
            const page = Buffer.concat(chunks);
            responseHeaders.set("Content-Type", "text/html");
            resolve(new Response(documentPost ? autofocusFirstInvalid(page.toString("utf8")) : page, { headers: responseHeaders, status: responseStatusCode }));
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    abortRender = abort;
  });
}
