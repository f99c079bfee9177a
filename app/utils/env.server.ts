import { z } from "zod";

/** Every setting the server reads, validated once at start-up. README "Configuration" lists them. */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** qa and uat switch on the QA-only features of the spec (for example consignment cancellation) */
  // the demo runs as QA so that its QA-only features (cancellation) are on; a live install sets production
  APP_ENV: z.enum(["development", "qa", "uat", "production"]).default("qa"),
  PORT: z.coerce.number().int().positive().default(3000),
  /** web processes sharing PORT; unset: one per core with DATABASE_URL (memory allowing), one with PGlite */
  WEB_CONCURRENCY: z.coerce.number().int().positive().optional(),
  DATABASE_URL: z.string().url().optional(),
  PGLITE_DIR: z.string().optional(),
  SMTP_URL: z.string().optional(),
  /** set: text messages are posted to this HTTP gateway as JSON { to, body }; unset: kept in the SMS outbox (mailbox page) */
  SMS_GATEWAY_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default("FreightDesk <no-reply@freightdesk.local>"),
  /** the provider's tech support address: enquiries go here when neither the carrier account nor the customer names one */
  SUPPORT_EMAIL: z.string().default("support@freightdesk.local"),
  APP_URL: z.string().url().optional(),
  /** "0" runs no queue worker in the web process (use `npm run worker` instead) */
  RUN_WORKER: z.enum(["0", "1"]).default("1"),
  SEED_DEMO: z.enum(["0", "1"]).default("1"),
  /** "0" starts each web process's browser at its first print instead of right after it listens */
  PRINT_WARMUP: z.enum(["0", "1"]).default("1"),
  /** sign-in and password attempts allowed per client address in SIGNIN_RATE_WINDOW_MS */
  SIGNIN_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  SIGNIN_RATE_WINDOW_MS: z.coerce.number().int().positive().default(15 * 60 * 1000),
  /**
   * Which proxies' X-Forwarded-For/-Proto/-Host to believe, as Express's "trust proxy" takes it:
   * "loopback", a hop count ("1"), addresses or subnets separated by commas, "true". Unset: none,
   * so a caller cannot choose the address the sign-in limit and audit record.
   */
  TRUST_PROXY: z.string().optional(),
  SAML_ENTRY_POINT: z.string().url().optional(),
  SAML_ISSUER: z.string().optional(),
  SAML_IDP_CERT: z.string().optional(),
  /** set: the journey map uses Google Maps in the browser (and the CSP allows Google's map hosts); unset: the bundled vector map only */
  GOOGLE_MAPS_API_KEY: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    // an empty variable means "not set" (e.g. DATABASE_URL= selects the embedded database)
    const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ""));
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
