import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { JobProgress } from "~/components/JobProgress";
import { requireStaff } from "~/modules/auth/guard.server";
import { homeButtons } from "~/modules/auth/roles";
import { todayIn } from "~/modules/calendar/site-time";
import { jobStatusFor } from "~/modules/jobs/jobs.server";
import { replayCarriers, requestReplay } from "~/modules/tracking/replay.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { FieldError } from "~/components/Field";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Manage tracking · FreightDesk" }];

/** Admins and super admins (spec 2: not customer service, whom the path rule lets through). */
async function requireReplayer(context: LoaderFunctionArgs["context"], request: Request) {
  const signed = await requireStaff(context, request);
  if (!homeButtons.manageTracking(signed.user)) throw redirect("/");
  return signed;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireReplayer(context, request);
  const jobId = new URL(request.url).searchParams.get("job");
  const [carriers, job] = await Promise.all([replayCarriers(context.db), jobId ? jobStatusFor(context.db, user, jobId).catch(() => null) : null]);
  return { carriers, today: todayIn(user.sites[0]?.timezone ?? null), job: job ? { id: jobId!, status: job } : null };
}

/** Either form: numbers (one a line, or separated by commas or spaces), or a carrier and despatch dates. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireReplayer(context, request);
  const form = await readPageForm(request);
  const by = form.get("by");
  const body = by === "carrier" ? { carrier: form.get("carrier"), fromDate: form.get("fromDate"), toDate: form.get("toDate") } : { consignmentNumbers: form.get("consignmentNumbers") ?? "" };
  try {
    const { job_id } = await requestReplay(context.db, context.queue, user, body);
    return redirect(`/manage_tracking?job=${job_id}`);
  } catch (error) {
    throwIfAccessError(error);
    if (error instanceof AppError) return data({ by, errors: error.fieldErrors, message: error.message }, { status: error.status });
    throw error;
  }
}

export default function ManageTracking() {
  const { carriers, today, job } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors: FieldErrors = result?.errors ?? {};
  const numbersErrors = result?.by !== "carrier" ? (errors.consignmentNumbers ?? (errors.base ? errors.base : undefined)) : undefined;
  const carrierErrors = result?.by === "carrier" ? errors : {};
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Manage tracking</h1>
      <p className="text-sm text-gray-700">
        Replay tracking events: ask the carriers again for the events of consignments and record what was missed. Events already received are ignored and no consignment moves backwards, so replaying
        twice changes nothing.
      </p>
      {result?.message && <Alerts alerts={[{ type: "error", message: result.message }]} />}
      {job && <JobProgress jobId={job.id} initial={job.status} />}
      <div className="grid gap-4 md:grid-cols-2">
        <section className="card" aria-labelledby="by-numbers">
          <h2 id="by-numbers" className="mb-2 font-semibold">
            By consignment numbers
          </h2>
          <Form method="post" className="space-y-2">
            <input type="hidden" name="by" value="numbers" />
            <label htmlFor="consignmentNumbers" className="label">
              Consignment numbers (one a line, or separated by commas)
            </label>
            <textarea
              id="consignmentNumbers"
              name="consignmentNumbers"
              rows={6}
              className="input font-mono"
              aria-invalid={numbersErrors ? true : undefined}
              aria-describedby={numbersErrors ? "consignmentNumbers-error" : undefined}
            />
            <FieldError id="consignmentNumbers-error" errors={numbersErrors} />
            <button type="submit" className="btn-primary" disabled={busy}>
              Replay
            </button>
          </Form>
        </section>
        <section className="card" aria-labelledby="by-carrier">
          <h2 id="by-carrier" className="mb-2 font-semibold">
            By carrier and despatch date
          </h2>
          <Form method="post" className="space-y-2">
            <input type="hidden" name="by" value="carrier" />
            <div>
              <label htmlFor="carrier" className="label">
                Carrier
              </label>
              <select id="carrier" name="carrier" className="input" aria-describedby={carrierErrors.carrier ? "carrier-error" : undefined}>
                {carriers.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
              <FieldError id="carrier-error" errors={carrierErrors.carrier} />
            </div>
            <div className="flex flex-wrap gap-2">
              <div>
                <label htmlFor="fromDate" className="label">
                  From
                </label>
                <input id="fromDate" name="fromDate" type="date" required defaultValue={today} className="input" aria-describedby={carrierErrors.fromDate ? "fromDate-error" : undefined} />
                <FieldError id="fromDate-error" errors={carrierErrors.fromDate} />
              </div>
              <div>
                <label htmlFor="toDate" className="label">
                  To
                </label>
                <input id="toDate" name="toDate" type="date" required defaultValue={today} className="input" aria-describedby={carrierErrors.toDate ? "toDate-error" : undefined} />
                <FieldError id="toDate-error" errors={carrierErrors.toDate} />
              </div>
            </div>
            <button type="submit" className="btn-primary" disabled={busy}>
              Replay
            </button>
          </Form>
        </section>
      </div>
    </div>
  );
}
