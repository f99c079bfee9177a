/**
 * The one domain error. Modules throw it with a code; `errorStatus` and the route helpers turn it
 * into an HTTP status and the spec's JSON error shape `{ errors: { field: [messages] }, error_code? }`.
 */
export type ErrorCode =
  | "invalid" // 422: input failed validation
  | "bad_request" // 400
  | "unauthenticated" // 401
  | "forbidden" // 403
  | "password_reset_required" // 403, the client goes to /users/edit
  | "not_found" // 404
  | "stale" // 409: optimistic lock lost
  | "conflict"; // 409

const STATUS: Record<ErrorCode, number> = {
  invalid: 422,
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  password_reset_required: 403,
  not_found: 404,
  stale: 409,
  conflict: 409,
};

export type FieldErrors = Record<string, string[]>;

/**
 * The server takes its modules from the Remix build, so in production each class exists once
 * (docs/decisions/010). A test process does hold two copies: the test files import the sources,
 * while the app they start runs the build, and a test may hand the app a service of its own (a
 * renderer that cannot start) or check an error the app threw. A registered symbol marks the
 * class, so `instanceof` holds across both copies.
 */
export function brandedError(name: string) {
  const brand = Symbol.for(`freightdesk.${name}`);
  return class extends Error {
    constructor(message: string) {
      super(message);
      this.name = name;
      Object.defineProperty(this, brand, { value: true });
    }
    static [Symbol.hasInstance](value: unknown): boolean {
      return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
    }
  };
}

export class AppError extends brandedError("AppError") {
  readonly code: ErrorCode;
  readonly fieldErrors: FieldErrors;

  constructor(code: ErrorCode, message: string, fieldErrors?: FieldErrors) {
    super(message);
    this.code = code;
    this.fieldErrors = fieldErrors ?? { base: [message] };
  }

  get status(): number {
    return STATUS[this.code];
  }

  toJSON(): { errors: FieldErrors; error_code?: string; password_reset_required?: boolean } {
    const body: { errors: FieldErrors; error_code?: string; password_reset_required?: boolean } = {
      errors: this.fieldErrors,
    };
    if (this.code === "stale") body.error_code = "stale";
    if (this.code === "password_reset_required") body.password_reset_required = true;
    return body;
  }
}

export const notFound = (what = "Record") => new AppError("not_found", `${what} not found`);
export const forbidden = (message = "You are not authorised to do that.") => new AppError("forbidden", message);

/** The first message of an error body, for alerts ("Unable to save. " + first message). */
export function firstErrorMessage(errors: FieldErrors | undefined): string | undefined {
  if (!errors) return undefined;
  for (const messages of Object.values(errors)) if (messages?.length) return messages[0];
  return undefined;
}

/**
 * An /api body's error keys as a page form's field names (`{ name: "address.name" }`), so a page
 * posting the same call marks the field the message is about; messages already under the field's
 * own name come first.
 */
export function errorsAsFields(errors: FieldErrors, fieldOf: Record<string, string>): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const field = fieldOf[key] ?? key;
    out[field] = [...new Set([...(out[field] ?? []), ...(messages ?? [])])];
  }
  return out;
}
