import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { JobProgress } from "~/components/JobProgress";
import { requireStaff } from "~/modules/auth/guard.server";
import { homeButtons } from "~/modules/auth/roles";
import { userToday } from "~/modules/calendar/site-time";
import { forPerson, formatDisplayDate, parseDisplayDate } from "~/modules/calendar/display-date";
import { DatePicker } from "~/components/DatePicker";
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
  // the dates are typed in the user's format, starting at today in their zone (their clock, decision 032)
  return { carriers, today: userToday(user), dateFormat: user.clock.dateFormat, job: job ? { id: jobId!, status: job } : null };
}

/** Either form: numbers (one a line, or separated by commas or spaces), or a carrier and despatch dates. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireReplayer(context, request);
  const form = await readPageForm(request);
  const by = form.get("by");
  const format = user.clock.dateFormat;
  const typed = { fromDate: String(form.get("fromDate") ?? ""), toDate: String(form.get("toDate") ?? "") };
  const body =
    by === "carrier"
      ? { carrier: form.get("carrier"), fromDate: parseDisplayDate(typed.fromDate, format), toDate: parseDisplayDate(typed.toDate, format) }
      : { consignmentNumbers: form.get("consignmentNumbers") ?? "" };
  try {
    const { job_id } = await requestReplay(context.db, context.queue, user, body);
    return redirect(`/manage_tracking?job=${job_id}`);
  } catch (error) {
    throwIfAccessError(error);
    if (error instanceof AppError) {
      // the messages name the format the person typed in, not the wire's YYYY-MM-DD
      const errors = Object.fromEntries(Object.entries(error.fieldErrors ?? {}).map(([k, v]) => [k, v?.map((m) => forPerson(m, format))]));
      return data({ by, errors, message: forPerson(error.message, format), values: typed }, { status: error.status });
    }
    throw error;
  }
}

export default function ManageTracking() {
  const { carriers, today, dateFormat, job } = useLoaderData<typeof loader>();
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
              <select id="carrier" name="carrier" className="input" aria-invalid={carrierErrors.carrier ? true : undefined} aria-describedby={carrierErrors.carrier ? "carrier-error" : undefined}>
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
                <DatePicker
                  id="fromDate"
                  name="fromDate"
                  label="From"
                  buttonLabel="Choose the from date"
                  country={dateFormat}
                  today={today}
                  required
                  className="w-48"
                  defaultValue={result && "values" in result ? result.values?.fromDate : formatDisplayDate(today, dateFormat)}
                  invalid={Boolean(carrierErrors.fromDate)}
                  describedBy={carrierErrors.fromDate ? "fromDate-error" : undefined}
                />
                <FieldError id="fromDate-error" errors={carrierErrors.fromDate} />
              </div>
              <div>
                <DatePicker
                  id="toDate"
                  name="toDate"
                  label="To"
                  buttonLabel="Choose the to date"
                  country={dateFormat}
                  today={today}
                  required
                  className="w-48"
                  defaultValue={result && "values" in result ? result.values?.toDate : formatDisplayDate(today, dateFormat)}
                  invalid={Boolean(carrierErrors.toDate)}
                  describedBy={carrierErrors.toDate ? "toDate-error" : undefined}
                />
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
