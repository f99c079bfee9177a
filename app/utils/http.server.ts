import type { AppLoadContext } from "@remix-run/node";
import { env } from "./env.server";
import { AppError } from "./errors";

/**
 * What an /api call reads of its request. A fetch `Request` is one; so is the plain call that
 * server/api-lane.ts makes from Express's request for the hot calls, sparing them Remix's
 * conversions (decision 046).
 */
export interface CallRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Pick<Headers, "get">;
  json(): Promise<unknown>;
  formData(): Promise<FormData>;
}

/** A call as a route module exports it in its `lane`: the same function its loader or action calls. */
export type LaneCall = (request: CallRequest, context: AppLoadContext, params: Record<string, string | undefined>) => Promise<Response>;

/** JSON error body in the /api contract shape. */
export function errorResponse(error: AppError): Response {
  return Response.json(error.toJSON(), { status: error.status });
}

/**
 * Wraps an /api handler: domain errors become their JSON error and status; a thrown Response
 * (redirects are never thrown from /api) passes through; a database refusal of the caller's input
 * is the caller's 400; anything else is a logged 500.
 */
export async function api<T>(handler: () => Promise<T>): Promise<Response> {
  try {
    const result = await handler();
    return result instanceof Response ? result : Response.json(result);
  } catch (error) {
    if (error instanceof Response) return error;
    if (error instanceof AppError) return errorResponse(error);
    const refused = inputRefusedByDatabase(error);
    if (refused) {
      // the input checks should have caught it first: log it so the check gets written
      console.warn("input refused by the database", refused.code, refused.message);
      return errorResponse(new AppError("bad_request", refused.message));
    }
    console.error(error);
    return Response.json({ errors: { base: ["Something went wrong. Please try again or contact tech support."] } }, { status: 500 });
  }
}

/**
 * PostgreSQL errors that only a caller's value can cause (SQLSTATE, with what to tell them): a
 * second line behind the input checks, so a value they missed is a 400 and not a 500.
 */
const INPUT_ERRORS: Record<string, string> = {
  "22P05": "The request contains a character that cannot be stored.",
  "22021": "The request contains a character that cannot be stored.",
  "22003": "A number in the request is out of range.",
  "22007": "A date or time in the request is not valid.",
  "22008": "A date or time in the request is out of range.",
  "54001": "The request is nested too deeply.",
};

/** The SQLSTATE of a database error (drizzle wraps the driver's error as its cause), e.g. 23505 for a unique index. */
export function sqlState(error: unknown): string | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/** A caller's value the database refused, with what to tell them. */
export function inputRefusedByDatabase(error: unknown): { code: string; message: string } | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code in INPUT_ERRORS) return { code, message: INPUT_ERRORS[code]! };
  }
  return null;
}

/** Methods that may change state; GET and HEAD never do. */
export function assertMethod(request: CallRequest, ...allowed: string[]): void {
  if (!allowed.includes(request.method.toUpperCase())) {
    throw Response.json({ errors: { base: [`Method ${request.method} not allowed`] } }, { status: 405, headers: { Allow: allowed.join(", ") } });
  }
}

/** Deeper JSON than any call takes; refused before zod or the database recurse over it. */
export const MAX_JSON_DEPTH = 32;

/**
 * Reads a JSON body (or a form body) as a plain object, for zod to validate. Refuses what no
 * field may hold before anything recurses over it or stores it: JSON nested deeper than
 * MAX_JSON_DEPTH (400) and NUL characters, which PostgreSQL text cannot hold (422 naming the
 * field). A body that is not the JSON or form it says it is answers 400.
 */
export async function readBody(request: CallRequest): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    const body: unknown = await request.json().catch(() => {
      throw new AppError("bad_request", "The request body is not valid JSON.");
    });
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new AppError("bad_request", "The request body must be a JSON object.");
    assertStorable(body);
    return body as Record<string, unknown>;
  }
  if (type.includes("form")) {
    const body = Object.fromEntries(await readForm(request));
    assertStorable(body);
    return body;
  }
  return {};
}

/** request.formData(), with a body that is not the form it claims to be as a 400 (not a TypeError). */
export async function readForm(request: Pick<CallRequest, "formData">): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new AppError("bad_request", "The request body is not a valid form.");
  }
}

/**
 * The query string's parameters, refused (422 naming the parameter) when one holds a NUL
 * character, which no parameter may carry to the database.
 */
export function readQuery(request: Request): URLSearchParams {
  const params = new URL(request.url).searchParams;
  for (const [key, value] of params) {
    if (key.includes("\u0000") || value.includes("\u0000")) throw nulError(key);
  }
  return params;
}

/** The query string as a plain object (the last value of a repeated parameter), for zod. */
export const readQueryObject = (request: Request): Record<string, string> => Object.fromEntries(readQuery(request));

const nulError = (field: string) => {
  const name = printableField(field);
  return new AppError("invalid", `${name} cannot contain a NUL character`, { [name]: [`${name} cannot contain a NUL character`] });
};

/** A field path as it can be shown (and stored in an error body): NUL written out. */
const printableField = (field: string) => field.replaceAll("\u0000", "\\u0000") || "base";

/**
 * Walks a parsed body without recursion: too deep is a 400, a NUL in any key or string a 422
 * naming its dotted path.
 */
export function assertStorable(value: unknown): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: "", depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes("\u0000")) throw nulError(path);
      continue;
    }
    if (!v || typeof v !== "object" || v instanceof Blob) continue;
    if (depth >= MAX_JSON_DEPTH) throw new AppError("bad_request", `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
    for (const [key, child] of Object.entries(v)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key.includes("\u0000")) throw nulError(childPath);
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
}

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

/** The loader of an action-only /api route: a GET answers 405 JSON naming the methods it takes (not Remix's 400). */
export function methodNotAllowed(...allowed: string[]) {
  return () => Response.json({ errors: { base: [`Use ${allowed.join(" or ")} for this call.`] } }, { status: 405, headers: { Allow: allowed.join(", ") } });
}

/**
 * A page action's form: a body that is not the form it claims to be answers the page's error
 * screen with 400 (a thrown Response), not a 500.
 */
export async function readPageForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response("The form could not be read. Go back and send it again.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

/**
 * Where links handed to people outside the app point (a public tracking link): APP_URL when it is
 * set, else the address this request reached (the configured default, localhost, would be wrong
 * for anyone but the server itself).
 */
export function linkBase(request: Request): string {
  return env().APP_URL ?? new URL(request.url).origin;
}
