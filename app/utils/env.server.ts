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
  /**
   * How long a working job may be silent before another worker's sweeper takes it over, and how
   * often each worker sweeps (docs/decisions/008); unset: 120 s and 30 s. Shorter recovers a job
   * whose worker died sooner, at the price of more heartbeats.
   */
  JOB_STALE_AFTER_SECONDS: z.coerce.number().int().min(4).optional(),
  JOB_SWEEP_SECONDS: z.coerce.number().int().positive().optional(),
  /** `npm run worker` answers GET /healthz and /readyz on this port when set (docs/decisions/031) */
  WORKER_HEALTH_PORT: z.coerce.number().int().positive().optional(),
  /** "0" starts each web process's browser at its first print instead of right after it listens */
  PRINT_WARMUP: z.enum(["0", "1"]).default("1"),
  /** "0" renders every page view, even one whose URL and data equal a view already rendered (decision 048) */
  PAGE_MEMO: z.enum(["0", "1"]).default("1"),
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
  /**
   * Where new files' bytes go (docs/decisions/037): "database" (the default: chunks in PostgreSQL)
   * or "s3" (the bucket below). Each file is read from where it was written, whatever this says.
   */
  FILE_STORE: z.enum(["database", "s3"]).default("database"),
  FILE_STORE_S3_BUCKET: z.string().optional(),
  /** an S3-compatible server (MinIO, Ceph, R2...): addressed path-style; unset: AWS S3 */
  FILE_STORE_S3_ENDPOINT: z.string().url().optional(),
  /** the bucket's region; needed on AWS; unset with an endpoint: "us-east-1" (an S3-compatible server mostly ignores it) */
  FILE_STORE_S3_REGION: z.string().optional(),
  /** both or neither; neither: the AWS SDK's default chain (AWS_* variables, profile, instance role) */
  FILE_STORE_S3_ACCESS_KEY_ID: z.string().optional(),
  FILE_STORE_S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** webhooks (docs/decisions/039): 1 lets endpoints use http and local or private addresses (development and tests only) */
  WEBHOOKS_ALLOW_LOCAL: z.enum(["0", "1"]).default("0"),
}).superRefine((c, ctx) => {
  // refused at start (server.ts and the worker read env() first), not at the first upload
  if (c.FILE_STORE === "s3" && !c.FILE_STORE_S3_BUCKET) {
    ctx.addIssue({ code: "custom", path: ["FILE_STORE_S3_BUCKET"], message: "FILE_STORE=s3 needs the bucket's name in FILE_STORE_S3_BUCKET" });
  }
  if (c.FILE_STORE_S3_BUCKET && !c.FILE_STORE_S3_ENDPOINT && !c.FILE_STORE_S3_REGION) {
    ctx.addIssue({ code: "custom", path: ["FILE_STORE_S3_REGION"], message: "an S3 bucket on AWS needs its region in FILE_STORE_S3_REGION" });
  }
  if (!c.FILE_STORE_S3_ACCESS_KEY_ID !== !c.FILE_STORE_S3_SECRET_ACCESS_KEY) {
    ctx.addIssue({ code: "custom", path: [c.FILE_STORE_S3_ACCESS_KEY_ID ? "FILE_STORE_S3_SECRET_ACCESS_KEY" : "FILE_STORE_S3_ACCESS_KEY_ID"], message: "FILE_STORE_S3_ACCESS_KEY_ID and FILE_STORE_S3_SECRET_ACCESS_KEY go together (or set neither for the AWS SDK's default credentials)" });
  }
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
