import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { requireStaff } from "~/modules/auth/guard.server";
import { MAX_DECLARATION_BYTES, MESSAGES, NAME_MAX, formatSize } from "~/modules/declarations/declarations";
import { createDeclaration, deleteDeclaration, getDeclaration, itemTypeChoices, updateDeclaration } from "~/modules/declarations/declarations.server";
import { readDeclarationUpload } from "~/modules/declarations/upload.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import type { FieldErrors } from "~/utils/errors";
import { pageId } from "~/utils/ids";
import { formErrorData, throwIfAccessError } from "~/utils/ui.server";
import { FieldError, TextField, fieldAria, useFocusFirstInvalid } from "~/components/Field";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.declaration ? d.declaration.name : "New declaration"} · Declarations · FreightDesk` }];

/** /customers/{customerId}/declarations: a new one; /declarations/{id}: that one (another customer's: 404). `?saved=1`: "Declaration was saved.". */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  try {
    const customerId = pageId(params.customerId);
    const customer = await customerForStaff(context.db, user, customerId);
    const itemTypes = await itemTypeChoices(context.db, user, customerId);
    const alerts: Alert[] = new URL(request.url).searchParams.has("saved") ? [{ type: "success", message: MESSAGES.saved }] : [];
    const declaration = params.declarationId ? await getDeclaration(context.db, user, customerId, pageId(params.declarationId)) : null;
    const crumbs = declaration
      ? await breadcrumbTrail(context.db, user, { model: "declaration", id: declaration.id })
      : [...(await breadcrumbTrail(context.db, user, { model: "declaration", parent: "customer", parent_id: customerId })), { label: "New declaration", url: `/customers/${customerId}/declarations` }];
    return { customer: { id: customer.id, name: customer.name }, itemTypes, declaration, alerts, crumbs };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Save (multipart: name, item_type_id, file) creates or changes it; intent delete deletes it. Limits are checked before the body is parsed. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const id = params.declarationId ? pageId(params.declarationId) : null;
  let values: Record<string, string> = {};
  try {
    await customerForStaff(context.db, user, customerId);
    const upload = await readDeclarationUpload(request);
    values = upload.fields;
    if (id && upload.fields.intent === "delete") {
      await deleteDeclaration(context.db, user, customerId, id);
      return redirect(`/customers/${customerId}/index_declarations?done=deleted`);
    }
    const saved = id ? await updateDeclaration(context.db, user, customerId, id, upload) : await createDeclaration(context.db, user, customerId, upload);
    return redirect(`/customers/${customerId}/declarations/${saved.id}?saved=1`);
  } catch (e) {
    // the upload's limit answers a Response (413): the form says so at the file
    if (e instanceof Response && e.status === 413) return data({ message: MESSAGES.tooLarge, errors: { file: [MESSAGES.tooLarge] } as FieldErrors, values }, { status: 413 });
    return formErrorData(e, "The declaration was not saved: please correct the fields marked.", values);
  }
}

export default function DeclarationEditor() {
  const { customer, itemTypes, declaration, alerts, crumbs } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values ?? null;
  const form = useFocusFirstInvalid(result?.errors);
  const heading = declaration ? `Declaration: ${declaration.name}` : "New declaration";
  const base = `/customers/${customer.id}`;
  return (
    <div className="max-w-3xl space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">{heading}</h1>
      <Alerts alerts={result?.message ? [{ type: "error", message: result.message }] : alerts} />
      <Form key={declaration?.id ?? "new"} ref={form} method="post" encType="multipart/form-data" className="card space-y-3" aria-label={heading}>
        <TextField name="name" label="Name" errors={errors} required maxLength={NAME_MAX} defaultValue={values?.name ?? declaration?.name ?? ""} />
        <div>
          <label htmlFor="item_type_id" className="label">
            Item type
          </label>
          <select
            id="item_type_id"
            name="item_type_id"
            defaultValue={values?.item_type_id ?? declaration?.item_type_id ?? ""}
            className="input w-96"
            {...fieldAria(errors, "item_type_id", true)}
          >
            <option value="">Every item type</option>
            {itemTypes.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
          <p id="item_type_id-hint" className="text-xs text-slate-600">
            Printed after the dangerous goods document of consignments whose dangerous goods travel in this item type.
          </p>
          <FieldError id="item_type_id-error" errors={errors.item_type_id} />
        </div>
        <div>
          <label htmlFor="file" className="label">
            {declaration ? "Replace the PDF" : "PDF file"}
          </label>
          <input
            id="file"
            name="file"
            type="file"
            accept=".pdf,application/pdf"
            required={!declaration}
            className="text-sm"
            {...fieldAria(errors, "file", true)}
            onChange={(event) => {
              // refused as soon as chosen with JavaScript; without it the server's own check answers
              const input = event.currentTarget;
              const file = input.files?.[0];
              input.setCustomValidity(file && file.size > MAX_DECLARATION_BYTES ? MESSAGES.tooLarge : "");
              input.reportValidity();
            }}
          />
          <p id="file-hint" className="text-xs text-slate-600">
            A PDF of at most 5 MB.
          </p>
          <FieldError id="file-error" errors={errors.file} />
        </div>
        {declaration && (
          <p className="text-sm" data-testid="declaration-file">
            Current file:{" "}
            <a href={declaration.file_url} className="link" download={declaration.filename}>
              {declaration.filename}
            </a>{" "}
            ({formatSize(declaration.size)}{declaration.created_by_name ? `, uploaded by ${declaration.created_by_name}` : ""})
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
            Save
          </button>
          <Link to={`${base}/declarations`} className="btn">
            New
          </Link>
          <Link to={`${base}/index_declarations`} className="btn">
            Back
          </Link>
        </div>
      </Form>
      {declaration && (
        <Form method="post" encType="multipart/form-data" aria-label="Delete the declaration">
          <button type="submit" name="intent" value="delete" className="btn-danger" disabled={busy}>
            Delete
          </button>
        </Form>
      )}
    </div>
  );
}
