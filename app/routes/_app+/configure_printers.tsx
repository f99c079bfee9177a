import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { requireUser } from "~/modules/auth/guard.server";
import { listPrinters, saveConfiguration } from "~/modules/printing/printers.server";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Configure printers · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  return listPrinters(context.db, user);
}

/** The printer configuration dialog's Save: all three printers, each of its kind. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    await saveConfiguration(context.db, user, Object.fromEntries(await readPageForm(request)));
    return { alert: { type: "success", message: "Printer configuration saved." } as Alert };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { alert: { type: "error", message: e.message } as Alert };
  }
}

const KINDS = [
  ["label", "Label", "Label printer"],
  ["manifest", "Manifest", "Manifest printer"],
  ["connote", "Connote", "Connote printer"],
] as const;

export default function ConfigurePrinters() {
  const { printers, configuration } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const navigation = useNavigation();
  const [chosen, setChosen] = useState<Record<string, string>>({
    label: String(configuration.label ?? ""),
    manifest: String(configuration.manifest ?? ""),
    connote: String(configuration.connote ?? ""),
  });
  // Save only when all three are chosen (spec 1 section 5)
  const complete = KINDS.every(([k]) => chosen[k]);
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-xl font-semibold">Printer configuration</h1>
      {outcome?.alert ? <Alerts alerts={[outcome.alert]} /> : null}
      <Form method="post" className="card space-y-3" aria-label="Printer configuration">
        {KINDS.map(([kind, type, label]) => (
          <div key={kind}>
            <label className="label" htmlFor={`${kind}_printer_id`}>
              {label}
            </label>
            <select id={`${kind}_printer_id`} name={`${kind}_printer_id`} className="input" value={chosen[kind]} onChange={(e) => setChosen((c) => ({ ...c, [kind]: e.target.value }))}>
              <option value="">Choose…</option>
              {printers
                .filter((p) => p.printer_type === type)
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
            </select>
          </div>
        ))}
        <p className="text-xs text-slate-500">Printing happens in your browser: a PDF printer opens the document to print; a ZPL printer downloads the label file for a thermal printer.</p>
        <div className="flex justify-end gap-2">
          <Link to="/" className="btn">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={!complete || navigation.state === "submitting"}>
            Save
          </button>
        </div>
      </Form>
    </div>
  );
}
