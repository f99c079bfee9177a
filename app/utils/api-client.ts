/**
 * The browser's calls to /api (spec 1 section 6): a 401 sends the user to sign in again, keeping
 * the page to come back to; a 403 with password_reset_required goes to /users/edit. Other answers
 * go back to the caller, with the first error message ready for an alert.
 */
export async function apiFetch<T>(
  path: string,
  init: { method?: string; json?: unknown; signal?: AbortSignal } = {},
): Promise<{ ok: true; data: T } | { ok: false; status: number; message: string }> {
  const res = await fetch(path, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: {
      Accept: "application/json",
      "X-Requested-With": "XMLHttpRequest",
      ...(init.json === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    signal: init.signal,
  });
  const body = (await res.json().catch(() => ({}))) as { errors?: Record<string, string[]>; password_reset_required?: boolean };
  if (res.status === 401) {
    window.location.assign(`/login?redirectTo=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  } else if (res.status === 403 && body.password_reset_required) {
    window.location.assign("/users/edit");
  }
  if (res.ok) return { ok: true, data: body as T };
  const first = body.errors ? Object.values(body.errors)[0]?.[0] : undefined;
  return { ok: false, status: res.status, message: first ?? `Request failed (${res.status} ${init.method ?? "GET"} ${path})` };
}
