import type { Database, Db } from "../db/client.server";
import type { Mailer } from "./modules/mail/mailer.server";
import type { JobQueue } from "../queues/queue.server";
import type { Renderer } from "./modules/printing/renderer.server";

/** What every loader, action and /api route receives as its load context. */
export interface AppServices {
  database: Database;
  db: Db;
  queue: JobQueue;
  mailer: Mailer;
  /** headless Chromium for PDFs, started on first use */
  renderer: Renderer;
  /** e.g. http://localhost:3000, for links in e-mails */
  baseUrl: string;
  /** the CSP nonce of this response */
  cspNonce?: string;
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppServices {}
}
declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppServices {}
}
