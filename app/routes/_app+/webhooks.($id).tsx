import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { FieldError, fieldAria } from "~/components/Field";
import { requireUser } from "~/modules/auth/guard.server";
import { replayDelivery } from "~/modules/webhooks/deliveries.server";
import { createEndpoint, deleteEndpoint, updateEndpoint } from "~/modules/webhooks/endpoints.server";
import { EVENT_DESCRIPTIONS, WEBHOOK_EVENTS } from "~/modules/webhooks/events";
import { MESSAGES } from "~/modules/webhooks/schema";
import { endpointForm, endpointScreen, webhooksScreen } from "~/modules/webhooks/screen.server";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Webhooks · FreightDesk" }];

/** /webhooks?customer_id: a customer's endpoints; /webhooks/{id}?page: one endpoint and its delivery log. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const url = new URL(request.url);
  try {
    if (params.id) return { kind: "endpoint" as const, ...(await endpointScreen(context.db, user, pageId(params.id), url)), notice: url.searchParams.get("done") };
    return { kind: "list" as const, ...(await webhooksScreen(context.db, user, url)), notice: url.searchParams.get("done") };
  } catch (e) {
    throwIfAccessError(e);
    if (e instanceof AppError) throw data({ message: e.message }, { status: e.status });
    throw e;
  }
}

const DONE: Record<string, string> = { saved: MESSAGES.updated, deleted: MESSAGES.deleted, replayed: MESSAGES.replayed };

/** create (list), save, rotate, delete, replay { delivery_id } (one endpoint). The secret is answered once, never redirected with. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const form = await readPageForm(request);
  const intent = String(form.get("intent") ?? "");
  try {
    if (!params.id) {
      if (intent !== "create") throw new AppError("bad_request", "Unknown action");
      const customerId = form.get("customer_id");
      const made = await createEndpoint(context.db, user, { ...endpointForm(form), ...(customerId ? { customer_id: String(customerId) } : {}) });
      return { intent, secret: made.secret, message: MESSAGES.created, id: made.webhook.id };
    }
    const id = pageId(params.id);
    if (intent === "save") await updateEndpoint(context.db, user, id, endpointForm(form));
    else if (intent === "rotate") return { intent, secret: (await updateEndpoint(context.db, user, id, { rotate_secret: true })).secret, message: MESSAGES.rotated, id };
    else if (intent === "delete") {
      await deleteEndpoint(context.db, user, id);
      return redirect("/webhooks?done=deleted");
    } else if (intent === "replay") await replayDelivery(context.db, user, pageId(String(form.get("delivery_id") ?? "")));
    else throw new AppError("bad_request", "Unknown action");
    return redirect(`/webhooks/${id}?done=${intent === "replay" ? "replayed" : "saved"}`);
  } catch (e) {
    throwIfAccessError(e);
    if (e instanceof AppError) return data({ intent, errors: e.fieldErrors, message: e.message }, { status: e.status });
    throw e;
  }
}

type Errors = Record<string, string[] | undefined>;

function EndpointFields({ errors, values }: { errors: Errors; values?: { url: string; events: string[]; active: boolean } }) {
  return (
    <>
      <div>
        <label htmlFor="url" className="label">
          URL
        </label>
        <input id="url" name="url" type="url" required className="input" defaultValue={values?.url} {...fieldAria(errors, "url", true)} />
        <p id="url-hint" className="mt-1 text-xs text-slate-600">
          https only; never a local or private address.
        </p>
        <FieldError id="url-error" errors={errors.url} />
      </div>
      <fieldset {...fieldAria(errors, "events")}>
        <legend className="label">Events</legend>
        {WEBHOOK_EVENTS.map((e) => (
          <label key={e} className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="events" value={e} defaultChecked={values?.events.includes(e) ?? false} className="mt-1" />
            <span>
              <code>{e}</code> <span className="text-slate-600">{EVENT_DESCRIPTIONS[e].split(".")[0]}.</span>
            </span>
          </label>
        ))}
        <FieldError id="events-error" errors={Object.entries(errors).find(([k]) => k.startsWith("events"))?.[1]} />
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="active" defaultChecked={values?.active ?? true} /> Active
      </label>
    </>
  );
}

function Secret({ secret }: { secret: string }) {
  return (
    <div className="card border-amber-300 bg-amber-50" role="status">
      <p className="text-sm font-semibold">Signing secret (shown this once)</p>
      <label htmlFor="secret" className="sr-only">
        Signing secret
      </label>
      <input id="secret" readOnly value={secret} className="input font-mono" />
    </div>
  );
}

export default function Webhooks() {
  const screen = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors: Errors = (result && "errors" in result ? result.errors : {}) ?? {};
  const alerts: Alert[] = [];
  if (screen.notice && DONE[screen.notice] && !result) alerts.push({ type: "success", message: DONE[screen.notice]! });
  if (result && "secret" in result) alerts.push({ type: "success", message: result.message });
  if (result && "errors" in result && !errors.url && !Object.keys(errors).some((k) => k.startsWith("events"))) alerts.push({ type: "error", message: result.message });
  const secret = result && "secret" in result ? result.secret : null;

  if (screen.kind === "endpoint") {
    const w = screen.webhook;
    const pages = Math.max(1, Math.ceil(screen.total / screen.per_page));
    return (
      <div className="max-w-5xl space-y-4">
        <p className="text-sm">
          <Link to={`/webhooks?customer_id=${w.customer_id}`}>← Webhooks</Link>
        </p>
        <h1 className="text-xl font-semibold">Webhook endpoint {w.url}</h1>
        <Alerts alerts={alerts} />
        {secret ? <Secret secret={secret} /> : null}
        {w.paused_reason ? <p className="text-sm text-amber-800">{w.paused_reason} Tick Active and save to resume.</p> : null}
        <Form method="post" className="card space-y-3" aria-label="Endpoint">
          <EndpointFields errors={errors} values={w} />
          <div className="flex gap-2">
            <button type="submit" name="intent" value="save" className="btn-primary">
              Save
            </button>
            <button type="submit" name="intent" value="rotate" className="btn">
              New secret
            </button>
            <button type="submit" name="intent" value="delete" className="btn">
              Delete
            </button>
          </div>
        </Form>
        <h2 className="text-lg font-semibold">Delivery log</h2>
        {screen.deliveries.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing has been delivered to this endpoint yet.</p>
        ) : (
          <table className="table w-full text-sm">
            <caption className="sr-only">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">
                  <span className="sr-only">Replay</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {screen.deliveries.map((d) => {
                const last = d.attempts[0];
                return (
                  <tr key={d.id}>
                    <td>
                      <code>{d.type}</code>
                      <div className="text-xs text-slate-600">{d.created_at}</div>
                    </td>
                    <td>{d.state === "pending" && d.next_attempt_at ? `pending, next ${d.next_attempt_at}` : d.state}</td>
                    <td>{d.attempts_count}</td>
                    <td>
                      {last ? (
                        <>
                          {last.status ?? "no answer"} · {last.duration_ms} ms{last.error ? ` · ${last.error}` : ""}
                          {last.response ? <pre className="mt-1 max-w-md overflow-x-auto whitespace-pre-wrap text-xs">{last.response}</pre> : null}
                        </>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td>
                      <Form method="post">
                        <input type="hidden" name="delivery_id" value={d.id} />
                        <button type="submit" name="intent" value="replay" className="btn" aria-label={`Replay delivery ${d.id} (${d.type})`}>
                          Replay
                        </button>
                      </Form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {pages > 1 ? (
          <nav aria-label="Delivery log pages" className="flex gap-2 text-sm">
            {screen.page > 1 ? <Link to={`?page=${screen.page - 1}`}>Newer</Link> : null}
            <span>
              Page {screen.page} of {pages}
            </span>
            {screen.page < pages ? <Link to={`?page=${screen.page + 1}`}>Older</Link> : null}
          </nav>
        ) : null}
      </div>
    );
  }

  return (
    <div className="max-w-5xl space-y-4">
      <h1 className="text-xl font-semibold">Webhooks of {screen.customer.name}</h1>
      <Alerts alerts={alerts} />
      {screen.customers ? (
        <Form method="get" className="flex items-end gap-2" aria-label="Choose customer">
          <div>
            <label htmlFor="customer_id" className="label">
              Customer
            </label>
            <select id="customer_id" name="customer_id" defaultValue={screen.customer.id} className="input">
              {screen.customers.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn">
            Show
          </button>
        </Form>
      ) : null}
      {secret ? <Secret secret={secret} /> : null}
      {screen.webhooks.length === 0 ? (
        <p className="text-sm text-slate-600">This customer has no webhook endpoints.</p>
      ) : (
        <table className="table w-full text-sm">
          <caption className="sr-only">Webhook endpoints</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col">Waiting</th>
            </tr>
          </thead>
          <tbody>
            {screen.webhooks.map((w) => (
              <tr key={w.id}>
                <td>
                  <Link to={`/webhooks/${w.id}`}>{w.url}</Link>
                </td>
                <td>{w.events.join(", ")}</td>
                <td>{w.active ? "Active" : (w.paused_reason ?? "Paused")}</td>
                <td>{w.waiting}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Form method="post" className="card space-y-3" aria-label="Add an endpoint">
        <h2 className="text-lg font-semibold">Add an endpoint</h2>
        {screen.customers ? <input type="hidden" name="customer_id" value={screen.customer.id} /> : null}
        <EndpointFields errors={result && "errors" in result ? errors : {}} />
        <button type="submit" name="intent" value="create" className="btn-primary">
          Add endpoint
        </button>
      </Form>
    </div>
  );
}
