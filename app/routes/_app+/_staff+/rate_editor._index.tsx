import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { UploadErrors } from "~/components/UploadErrors";
import { DatePicker } from "~/components/DatePicker";
import { requireStaff } from "~/modules/auth/guard.server";
import type { CurrentUser } from "~/modules/auth/current-user.server";
import { formatDisplayDate, parseDisplayDate } from "~/modules/calendar/display-date";
import { userToday } from "~/modules/calendar/site-time";
import { listFuelLevies, saveFuelLevy } from "~/modules/rating/fuel-levies.server";
import { referenceLists } from "~/modules/rating/lookups.server";
import { RATE_CARD_COLUMNS } from "~/modules/rating/csv-columns";
import { deleteRateCards, exportRateCards, importRateCard, listRateCardFiles } from "~/modules/rating/rate-cards.server";
import { AppError } from "~/utils/errors";
import { toCsv } from "~/utils/csv.server";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "~/utils/upload-limits";
import { CsvFileInput } from "~/components/CsvFileInput";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Rate editor · FreightDesk" }];

/** Staff read and type dates in their own clock's format, today in their zone (decision 032). */
function datesOf(user: CurrentUser) {
  return { country: user.clock.dateFormat, today: userToday(user) };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const [files, levies, lists] = await Promise.all([listRateCardFiles(context.db), listFuelLevies(context.db), referenceLists(context.db)]);
  return { files, levies, carriers: lists.carriers, dates: datesOf(user) };
}

const csvResponse = (csv: string, filename: string) =>
  new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"` } });

type Outcome = { alerts: Alert[]; lineErrors: Array<[string, string[]]> };

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_UPLOAD_BYTES) {
    return data<Outcome>({ alerts: [{ type: "error", message: FILE_TOO_LARGE }], lineErrors: [] }, { status: 422 });
  }
  const form = await readPageForm(request);
  const intent = String(form.get("intent"));
  const filename = String(form.get("filename") ?? "");
  try {
    switch (intent) {
      case "import": {
        const file = form.get("file");
        if (!(file instanceof File) || file.size === 0) throw new AppError("invalid", "Choose a csv file to import.");
        if (!/\.csv$/i.test(file.name)) throw new AppError("invalid", "Only csv files can be imported.");
        const report = await importRateCard(context.db, await file.text(), file.name);
        return data<Outcome>({ alerts: [{ type: "success", message: `Rates imported from ${file.name}: ${report.created} new lane(s), ${report.updated} updated.` }], lineErrors: [] });
      }
      case "delete": {
        const { deleted } = await deleteRateCards(context.db, { filename });
        return data<Outcome>({ alerts: [{ type: "success", message: `Deleted ${deleted} lane(s) of ${filename}.` }], lineErrors: [] });
      }
      case "download":
        return csvResponse(await exportRateCards(context.db, { filename }), filename);
      case "export": {
        const filter = Object.fromEntries(["carrier_code", "service_code", "rate_code"].map((k) => [k, String(form.get(k) ?? "") || undefined]));
        try {
          return csvResponse(await exportRateCards(context.db, filter), "rates.csv");
        } catch {
          return data<Outcome>({ alerts: [{ type: "error", message: "Error exporting rates" }], lineErrors: [] }, { status: 500 });
        }
      }
      case "template":
        return csvResponse(
          await toCsv([...RATE_CARD_COLUMNS], [
            { carrier_code: "NORTHLINE", service_code: "GEN", rate_code: "STD", from_zone: "V1", to_zone: "N1", basic: 11.5, per_kg: 0.6, per_item: 2.5, minimum: 16.1, transit_days: 2, cubic_factor: 333, effective_from: "01/07/2027", som: "metric" },
          ]),
          "rate-card-template.csv",
        );
      case "fuel": {
        const { country } = datesOf(user);
        const fields = Object.fromEntries(form);
        const saved = await saveFuelLevy(context.db, { ...fields, effective_from: parseDisplayDate(String(fields.effective_from ?? ""), country) });
        return data<Outcome>({ alerts: [{ type: "success", message: `Fuel levy of ${saved.carrier_code} set to ${saved.percentage}% from ${formatDisplayDate(saved.effective_from, country)}.` }], lineErrors: [] });
      }
      default:
        throw new AppError("bad_request", "Unknown action");
    }
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const lineErrors = Object.entries(e.fieldErrors).filter(([k]) => k.startsWith("line "));
    return data<Outcome>({ alerts: [{ type: "error", message: e.message }], lineErrors }, { status: e.status });
  }
}

export default function RateEditor() {
  const { files, levies, carriers, dates } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as Outcome | undefined;
  const navigation = useNavigation();
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Rate editor</h1>
        <Link to="/rate_editor/check" className="btn">
          Price check
        </Link>
      </div>
      <Alerts alerts={actionData?.alerts ?? []} />
      <UploadErrors lines={(actionData?.lineErrors ?? []).map(([line, errors]) => ({ line, errors }))} />

      <div className="grid gap-4 md:grid-cols-2">
        <section className="card space-y-3" aria-labelledby="import-heading">
          <h2 id="import-heading" className="font-semibold">
            Import a rate card
          </h2>
          <p className="text-sm text-slate-600">
            A csv file in the template&apos;s columns ({RATE_CARD_COLUMNS.join(", ")}). A file with any bad line is refused whole. Lanes with a new
            effective date are added beside the old ones; the card in force on the despatch date rates.
          </p>
          <Form method="post" encType="multipart/form-data" className="space-y-3" aria-label="Import a rate card">
            <input type="hidden" name="intent" value="import" />
            <label htmlFor="rate-file" className="label">
              File
            </label>
            <CsvFileInput id="rate-file" />
            <div className="flex gap-2">
              <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
                {navigation.state === "submitting" ? "Importing..." : "Import"}
              </button>
            </div>
          </Form>
          <Form method="post" reloadDocument>
            <input type="hidden" name="intent" value="template" />
            <button type="submit" className="text-sm text-sky-700 hover:underline">
              Download template
            </button>
          </Form>
        </section>

        <section className="card space-y-3" aria-labelledby="export-heading">
          <h2 id="export-heading" className="font-semibold">
            Export rates
          </h2>
          <Form method="post" reloadDocument className="grid gap-3 sm:grid-cols-3" aria-label="Export rates">
            <input type="hidden" name="intent" value="export" />
            <div>
              <label htmlFor="export-carrier" className="label">
                Carrier
              </label>
              <select id="export-carrier" name="carrier_code" className="input">
                <option value="">All</option>
                {carriers.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="export-service" className="label">
                Service code
              </label>
              <input id="export-service" name="service_code" className="input" />
            </div>
            <div>
              <label htmlFor="export-rate" className="label">
                Rate code
              </label>
              <input id="export-rate" name="rate_code" className="input" />
            </div>
            <button type="submit" className="btn sm:col-span-3 sm:w-fit">
              Export csv
            </button>
          </Form>
        </section>
      </div>

      <section className="card" aria-labelledby="files-heading">
        <h2 id="files-heading" className="mb-2 font-semibold">
          Imported rate cards
        </h2>
        {files.length === 0 ? (
          <p className="text-sm text-slate-500">No rate cards have been imported.</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="py-1">File</th>
                <th>Carrier</th>
                <th className="text-right">Lanes</th>
                <th>Effective from</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {files.map((f) => (
                <tr key={`${f.filename}-${f.carrierCode}`} className="border-t border-slate-100">
                  <td className="py-1">{f.filename ?? "(unnamed)"}</td>
                  <td>{f.carrierCode}</td>
                  <td className="text-right tabular-nums">{f.lanes}</td>
                  <td>{f.effectiveFrom}</td>
                  <td className="flex justify-end gap-2 py-1">
                    <Form method="post" reloadDocument>
                      <input type="hidden" name="intent" value="download" />
                      <input type="hidden" name="filename" value={f.filename ?? ""} />
                      <button type="submit" className="text-sky-700 hover:underline" aria-label={`Download ${f.filename}`}>
                        Download
                      </button>
                    </Form>
                    <Form method="post" onSubmit={(e) => !confirm(`Delete every lane imported from ${f.filename}?`) && e.preventDefault()}>
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="filename" value={f.filename ?? ""} />
                      <button type="submit" className="text-red-700 hover:underline" aria-label={`Delete ${f.filename}`}>
                        Delete
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-labelledby="fuel-heading">
        <h2 id="fuel-heading" className="mb-2 font-semibold">
          Fuel levies
        </h2>
        <table className="mb-3 w-full text-sm">
          <thead className="text-left text-slate-500">
            <tr>
              <th className="py-1">Carrier</th>
              <th className="text-right">Levy</th>
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {levies.map((l) => (
              <tr key={l.id} className="border-t border-slate-100">
                <td className="py-1">{l.carrierName}</td>
                <td className="text-right tabular-nums">{Number(l.percentage)}%</td>
                <td>{formatDisplayDate(l.effectiveFrom, dates.country)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Form method="post" className="flex flex-wrap items-end gap-3" aria-label="Set a fuel levy">
          <input type="hidden" name="intent" value="fuel" />
          <div>
            <label htmlFor="fuel-carrier" className="label">
              Carrier
            </label>
            <select id="fuel-carrier" name="carrier_code" required className="input">
              {carriers.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="fuel-pct" className="label">
              Levy %
            </label>
            <input id="fuel-pct" name="percentage" inputMode="decimal" required className="input w-24" />
          </div>
          <DatePicker id="fuel-from" name="effective_from" label="From" buttonLabel="Choose the levy's first day" country={dates.country} today={dates.today} required className="w-48" />
          <button type="submit" className="btn">
            Save levy
          </button>
        </Form>
      </section>
    </div>
  );
}
