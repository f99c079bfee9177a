import { AppError } from "./errors";

/** JSON error body in the /api contract shape. */
export function errorResponse(error: AppError): Response {
  return Response.json(error.toJSON(), { status: error.status });
}

/**
 * Wraps an /api handler: domain errors become their JSON error and status; a thrown Response
 * (redirects are never thrown from /api) passes through; anything else is a logged 500.
 */
export async function api<T>(handler: () => Promise<T>): Promise<Response> {
  try {
    const result = await handler();
    return result instanceof Response ? result : Response.json(result);
  } catch (error) {
    if (error instanceof Response) return error;
    if (error instanceof AppError) return errorResponse(error);
    console.error(error);
    return Response.json({ errors: { base: ["Something went wrong. Please try again or contact tech support."] } }, { status: 500 });
  }
}

/** Methods that may change state; GET and HEAD never do. */
export function assertMethod(request: Request, ...allowed: string[]): void {
  if (!allowed.includes(request.method.toUpperCase())) {
    throw Response.json({ errors: { base: [`Method ${request.method} not allowed`] } }, { status: 405, headers: { Allow: allowed.join(", ") } });
  }
}

/** Reads a JSON body (or a form body) as a plain object, for zod to validate. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    const body = await request.json().catch(() => {
      throw new AppError("bad_request", "The request body is not valid JSON.");
    });
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new AppError("bad_request", "The request body must be a JSON object.");
    return body as Record<string, unknown>;
  }
  if (type.includes("form")) return Object.fromEntries(await request.formData());
  return {};
}

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

/** The loader of an action-only /api route: a GET answers 405 JSON naming the methods it takes (not Remix's 400). */
export function methodNotAllowed(...allowed: string[]) {
  return () => Response.json({ errors: { base: [`Use ${allowed.join(" or ")} for this call.`] } }, { status: 405, headers: { Allow: allowed.join(", ") } });
}
