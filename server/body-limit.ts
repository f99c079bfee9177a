import type { Request, RequestHandler, Response } from "express";
import { refuse } from "./refuse";
import { routePath } from "./route-path";

/**
 * JSON and form bodies. The largest valid one is a consignment of 200 items with 20 dangerous
 * goods lines each, every text at its maximum: 2.8 MB of JSON (a test builds it and posts it); a real
 * one with 200 items is about 100 kB.
 */
export const BODY_LIMIT_BYTES = 4 * 1024 * 1024;
/** Room for an upload's multipart framing and fields beyond the file's stated limit (checked exactly by the upload reader). */
export const UPLOAD_FRAMING_BYTES = 64 * 1024;
export const BODY_TOO_LARGE = `The request is larger than ${BODY_LIMIT_BYTES / 1024 / 1024} MB.`;

/** The CSV import calls and screens (and the screens' single-fetch `.data` twins); the recipients' take gz too. */
const UPLOAD_PATH_PATTERNS = [
  "api/(zones|localities|dangerous_goods_types|rate_editor)/import",
  "zones",
  "zones/localities",
  "zones/dangerous_goods",
  "rate_editor",
  // issue 16: item types, users and recipients imports, each call and its screen
  "api/customers/\\d+/item_types/import",
  "customers/\\d+/index_item_types",
  "api/customers/\\d+/users/create_bulk",
  "customers/\\d+/index_users",
  "api/customers/\\d+/recipients/import",
  "customers/\\d+/index_recipients",
  // issue 17: store products import, the call and its screen
  "api/customers/\\d+/store/products/import",
  "customers/\\d+/store/\\d+/products",
  // issue 17: the bulk upload and bulk redespatch calls and the bulk upload screen
  "api/bulk_upload/(import|redespatch)",
  "bulk_upload",
  // issue 17 item 7: branding images (two of up to 2 MB each), the call and its screen
  "api/customers/\\d+/branding",
  // issue 18: carrier invoice test runs and imports, the calls and their screens
  "api/carrier_invoice_configs/test_run",
  "api/invoices/import",
  "invoices_payable/import",
  "branding",
  // issue 18 item 5: the allocation mapping import, the call and its screen
  "api/allocation_rules/sapphire_mapping_import",
  "allocation_rules",
  // issue 19 point 4: the reconciliation report upload, the call and its screen
  "api/old_reconciliations",
  "reconciliation",
];
export const UPLOAD_PATHS = new RegExp(`^/(${UPLOAD_PATH_PATTERNS.join("|")})(\\.data)?/?$`, "i");
/** The image upload of notification templates: multipart, with a limit of its own. */
export const IMAGE_UPLOAD_PATHS = /^\/api\/notifications_media_upload\/?$/i;
/** The declaration uploads (a PDF, multipart): the /api calls and the declaration screen (and its `.data` twin). */
export const DECLARATION_UPLOAD_PATHS = /^\/(api\/)?customers\/\d+\/declarations(\/\d+)?(\.data)?\/?$/i;

type Limit = { maxBytes: number; tooLarge: string };

export function hasBody(req: Request): boolean {
  return Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
}

/**
 * After an answer that leaves a body unread, at most this much more is read (and dropped) so that
 * the client, still sending, gets the answer before the connection closes: closing a socket with
 * unread bytes resets it, and a reset can swallow the answer.
 */
const DISCARD_AFTER_ANSWER_BYTES = 16 * 1024 * 1024;
/** ...and for at most this long, after which the connection is cut whatever is still coming. */
const DISCARD_AFTER_ANSWER_MS = 5_000;

/**
 * An answer that goes out before the whole body came (a 401, 403 or 413 to an upload) says
 * `Connection: close`, and the connection then ends as soon as the body is in (read and dropped)
 * or the bounds above pass. Kept alive, such a connection sat for the keep-alive's 65 s while a
 * client that sends its whole body before reading waited (issue 35 finding 8). Node would close
 * it at once after the answer, and a close with unread bytes resets the connection, which can
 * swallow the answer: so its half-close only sends the end of the answer, and the drop finishes.
 */
function closeAfterEarlyAnswer(req: Request, res: Response, discard: () => void): { bodyIn(): void } {
  let answered = false;
  let bodyIn = false;
  let closeSoon: (() => void) | null = null;
  const close = () => answered && bodyIn && closeSoon?.();
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadClosing(this: Response, ...args: Parameters<Response["writeHead"]>) {
    if (!req.complete && !closeSoon) {
      res.setHeader("Connection", "close");
      const socket = req.socket;
      // Node's own close after a Connection: close answer (the end sent, then destroyed once written)
      closeSoon = socket.destroySoon.bind(socket);
      socket.destroySoon = () => {
        answered = true;
        bodyIn ||= req.complete;
        socket.end();
        discard();
        setTimeout(() => socket.destroy(), DISCARD_AFTER_ANSWER_MS).unref();
        close();
      };
    }
    return writeHead.apply(this, args);
  } as Response["writeHead"];
  return {
    bodyIn() {
      bodyIn = true;
      close();
    },
  };
}

/**
 * Counts a request's body bytes as they arrive, chunked or not, before anything parses them, and
 * answers 413 once they pass the path's limit (a declared Content-Length over it at once). The
 * count sits in the request's own `push`, where Node's HTTP parser hands over each body chunk, so
 * it holds whoever reads the stream (Remix's adapter does). Past the limit the reader's body fails
 * (never a short body: a cut-off form still parses) and the rest is dropped, as is the rest of a
 * body the app answered without reading (a 401 to a signed-out upload), up to a bound after which
 * the connection is closed.
 */
export function bodyLimit(uploads: Limit, images?: Limit, declarations?: Limit): RequestHandler {
  return (req, res, next) => {
    // no Content-Length and no Transfer-Encoding: HTTP/1.1 says there is no body to count, and
    // leaving the request as Node made it spares every GET the cost of a patched stream
    if (!hasBody(req)) return next();
    const path = routePath(req);
    const file = images && IMAGE_UPLOAD_PATHS.test(path) ? images : declarations && DECLARATION_UPLOAD_PATHS.test(path) ? declarations : UPLOAD_PATHS.test(path) ? uploads : null;
    const limit = file ? file.maxBytes + UPLOAD_FRAMING_BYTES : BODY_LIMIT_BYTES;
    const tooLarge = () => refuse(req, res, 413, file ? file.tooLarge : BODY_TOO_LARGE, file ? { file: [file.tooLarge] } : undefined);
    let received = 0;
    let discarded = -1;
    const discard = () => {
      if (discarded >= 0) return;
      discarded = 0;
      req.resume(); // the parser may have stopped reading the socket: start again, to drop
    };
    const closing = closeAfterEarlyAnswer(req, res, discard);
    const push = req.push;
    req.push = function countedPush(chunk: unknown, encoding?: BufferEncoding) {
      if (discarded >= 0) {
        if (chunk == null) {
          closing.bodyIn(); // a connection whose answer said close now ends, cleanly
          return push.call(req, null); // else the whole body came: the connection may carry on
        }
        discarded += (chunk as Buffer).length;
        if (discarded > DISCARD_AFTER_ANSWER_BYTES) req.socket.destroy();
        return true;
      }
      if (chunk != null) {
        received += (chunk as Buffer).length;
        if (received > limit) {
          discard();
          if (res.headersSent) res.destroy();
          else tooLarge();
          // Remix's adapter listens for the request's errors: its body read fails
          if (req.listenerCount("error")) req.emit("error", new Error(`Request body over ${limit} bytes: refused with 413`));
          return true;
        }
      }
      return push.call(req, chunk, encoding);
    };
    // before Node's own end of response, which would drain an unread body whole and uncounted
    res.once("prefinish", () => {
      if (!req.complete) discard();
    });
    if (Number(req.get("content-length") ?? 0) > limit) {
      discard();
      return tooLarge();
    }
    next();
  };
}
