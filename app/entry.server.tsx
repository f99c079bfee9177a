import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { autofocusFirstInvalid } from "./utils/autofocus-invalid";
import { NonceProvider } from "./utils/nonce";

// The server, the job worker, the test server and the bench read these through
// `build.entry.module`, so the services are made by the build's own copy of the modules.
export * from "./services.server";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  // a document POST is a form sent without JavaScript: the page is sent whole, its first invalid field autofocused
  const documentPost = request.method === "POST";
  const readyEvent = documentPost || isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // armed before the render starts (a shell that never finishes is aborted too); a render that
    // throws at once leaves nothing to abort
    let abortRender = () => {};
    const timer = setTimeout(() => abortRender(), ABORT_DELAY);
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html");
      if (documentPost) {
        const chunks: Buffer[] = [];
        body.on("data", (c: Buffer) => chunks.push(c));
        body.on("end", () => resolve(new Response(autofocusFirstInvalid(Buffer.concat(chunks).toString("utf8")), { headers: responseHeaders, status: responseStatusCode })));
        pipe(body);
        return;
      }
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (readyEvent === "onShellReady") ready();
        },
        onAllReady() {
          // rendered whole: nothing left to abort. Left to run, each view's timer kept its whole
          // render alive for 5 s (hundreds at once under load, all for the collector to carry)
          clearTimeout(timer);
          if (readyEvent === "onAllReady") ready();
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
