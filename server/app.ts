import { randomBytes } from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type Response } from "express";
import { signInRateLimiter } from "./sign-in-limits";
import helmet from "helmet";
import type { AppServices } from "../app/services.server";

// the sign-in limits live in sign-in-limits.ts (their tests import them from here too)
export { SIGN_IN_PATHS, TOO_MANY_ATTEMPTS } from "./sign-in-limits";
export { signInRateLimiter };

export function contentSecurityPolicy() {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // scripts only from this origin or carrying this response's nonce (Remix's inline scripts)
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // not helmet's "no-referrer": with it Chromium sends `Origin: null` on form posts, which
    // Remix's CSRF check (rightly) refuses; "same-origin" still tells other sites nothing
    referrerPolicy: { policy: "same-origin" },
  });
}

export interface AppOptions {
  build: ServerBuild;
  services: Omit<AppServices, "cspNonce">;
  rateLimit: { limit: number; windowMs: number };
  production: boolean;
  root: string;
}

export function createApp(options: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  app.use(contentSecurityPolicy());
  app.use(compression());
  app.use(signInRateLimiter({ ...options.rateLimit, db: options.services.db }));
  app.use("/build", express.static(path.join(options.root, "public/build"), { immutable: true, maxAge: "1y" }));
  // public/ holds only the favicon besides build/: serving it by name spares every other request a
  // file-system stat (measured at 8% of the server's time under load)
  app.get("/favicon.svg", (_req, res) => res.sendFile(path.join(options.root, "public/favicon.svg"), { maxAge: "1h" }));
  // The client address, as the app sees it (sign-in audit); a client's own header is overwritten.
  app.use((req, _res, next) => {
    req.headers["x-client-ip"] = req.ip ?? "";
    next();
  });
  app.all(
    "*",
    createRequestHandler({
      build: options.build,
      mode: options.production ? "production" : "development",
      getLoadContext: (_req, res) => ({ ...options.services, cspNonce: res.locals.cspNonce as string }),
    }),
  );
  return app;
}
