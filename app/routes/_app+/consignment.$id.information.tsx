import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { InformationView } from "~/components/consignment/InfoDialog";
import { requireUser } from "~/modules/auth/guard.server";
import { informationPage, superadminUpdate } from "~/modules/consignments/information.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `Information ${d?.information.fields.find((f) => f.field === "consignment_number")?.value ?? ""} · FreightDesk` },
];

/** /consignment/{id}/information: the information view without JavaScript (the screen's Info modal shows the same). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    const page = await informationPage(context.db, user, pageId(params.id));
    return { ...page, saved: new URL(request.url).searchParams.get("saved") === "1" };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Info Save without JavaScript: a super admin's edit, then back here (PRG); errors come back to the form. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const id = pageId(params.id);
  const form = await readPageForm(request);
  const body = Object.fromEntries([...form.entries()].filter(([k, v]) => k !== "intent" && typeof v === "string"));
  try {
    await superadminUpdate(context.db, user, id, body);
    return redirect(`/consignment/${id}/information?saved=1`);
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    return data({ message: e.message, errors: e.fieldErrors as FieldErrors, values: body as Record<string, string> }, { status: e.status });
  }
}

export default function ConsignmentInformationPage() {
  const { information, changes, itemChanges, saved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-6xl space-y-3 p-4" data-testid="information-page">
      <h1 className="text-xl font-semibold">Consignment information</h1>
      <InformationView
        // a post's outcome starts the view afresh with its message
        key={result ? JSON.stringify(result) : "loaded"}
        data={{ information, changes, itemChanges }}
        closeButton={{ href: information.screen }}
        headingLevel={2}
        page={{ errors: result?.errors ?? {}, message: result?.message ?? null, saved: saved && !result, values: result?.values }}
      />
    </main>
  );
}
