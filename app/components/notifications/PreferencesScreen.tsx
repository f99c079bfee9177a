import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts } from "~/components/Alerts";
import { FormErrors } from "~/components/Field";
import { LEVEL_LABELS, STATE_LABELS, TRIGGER_STATES } from "~/modules/notifications/configs";
import type { PreferencesActionData, PreferencesPageData } from "~/modules/notifications/preferences.server";
import { AccountChooser, Breadcrumb, LevelsTable, SetHere } from "./PreferencesParts";
import { TemplateEditor } from "./TemplateEditor";

export { templateEditorLinks as preferencesLinks } from "./TemplateEditor";

const TITLE: Record<string, string> = { customer: "Customer", site: "Site", account: "Carrier account" };

/** What applies at this level for the chosen notification, in words. */
function Standing({ data }: { data: PreferencesPageData }) {
  const { own, inherited, parent } = data;
  const level = LEVEL_LABELS[parent.type];
  if (own) {
    return (
      <p className="text-sm text-slate-700" data-testid="standing">
        This {level} has its own template{own.status ? "" : ", turned off: nothing is sent here"}.
      </p>
    );
  }
  if (inherited) {
    return (
      <p className="text-sm text-slate-700" data-testid="standing">
        This {level} has no template of its own: the {LEVEL_LABELS[inherited.type]}&apos;s (
        <Link to={inherited.path} className="text-sky-700 underline">
          {inherited.label}
        </Link>
        ) applies{inherited.enabled ? "" : ", turned off"}. It is shown below: saving it gives this {level} its own.
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-700" data-testid="standing">
      No template applies to this {level} yet: nothing is sent for this notification here. Saving one below gives it its own.
    </p>
  );
}

/**
 * Notification preferences of a customer, a site or a carrier account (spec 2): choose a type and
 * trigger state, turn it on or off, edit its template (Quill, or the plain textarea without
 * JavaScript), and at a customer or site choose which accounts with their own templates take the
 * change too. The same screen at each level; the route says which.
 */
export function PreferencesScreen() {
  const data = useLoaderData<() => Promise<PreferencesPageData>>();
  const result = useActionData<() => Promise<PreferencesActionData>>();
  const busy = useNavigation().state === "submitting";
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const { parent, types, selected, own, inherited, customAccounts, tags } = data;
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  const values = result && !result.ok ? result.values : undefined;
  const query = selected ? `type=${selected.typeId}&state=${selected.state}` : "";
  const type = types.find((t) => t.id === selected?.typeId);
  const otherErrors = [...(errors.notification_type ?? []), ...(errors.consignment_state ?? []), ...(errors.base ?? [])];
  const level = LEVEL_LABELS[parent.type];

  return (
    <div className="space-y-4" data-testid="notification-preferences" data-hydrated={hydrated ? "true" : undefined}>
      <Breadcrumb data={data} query={query} />
      <div>
        <h1 className="text-xl font-semibold">Notification Preferences · {parent.label}</h1>
        <p className="text-sm text-slate-600">
          {TITLE[parent.type]}
          {parent.type === "site" ? ` of ${parent.customerName}` : parent.type === "account" ? ` at ${parent.siteName}, ${parent.customerName}` : ""}
        </p>
      </div>
      <Alerts alerts={result?.alerts ?? []} />
      {!selected ? (
        <p className="card text-sm text-slate-600">No Notification Types found.</p>
      ) : (
        <>
          <Form method="get" className="card flex flex-wrap items-end gap-3" aria-label="Choose a notification" key={query}>
            <div>
              <label htmlFor="type" className="label">
                Notification type
              </label>
              <select id="type" name="type" defaultValue={selected.typeId} className="input">
                {types.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="state" className="label">
                Trigger consignment state
              </label>
              <select id="state" name="state" defaultValue={selected.state} className="input">
                {TRIGGER_STATES.map((s) => (
                  <option key={s} value={s}>
                    {STATE_LABELS[s]}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn">
              Show
            </button>
          </Form>

          <section className="card space-y-3" aria-labelledby="edit-heading">
            <h2 id="edit-heading" className="font-semibold">
              {selected.typeName} · {STATE_LABELS[selected.state]}
            </h2>
            <Standing data={data} />
            <Form method="post" className="space-y-3" aria-labelledby="edit-heading" key={`${query}-${own?.updated_at ?? "none"}`}>
              <input type="hidden" name="intent" value="save" />
              <input type="hidden" name="notification_type" value={selected.typeId} />
              <input type="hidden" name="consignment_state" value={selected.state} />
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="status" value="enabled" defaultChecked={values?.status ?? own?.status ?? inherited?.enabled ?? true} />
                Enabled: send this notification
              </label>
              <TemplateEditor
                id="template"
                name="template"
                label="Template"
                defaultValue={values?.template ?? own?.template ?? inherited?.template ?? ""}
                tags={tags}
                hint={`Tags such as {{ receiver_name }} are replaced with the consignment's details when sent.${type?.max_length ? ` ${type.name} messages are cut at ${type.max_length} characters.` : ""}`}
                error={errors.template?.[0]}
                uploadUrl="/api/notifications_media_upload"
              />
              {customAccounts.length > 0 ? <AccountChooser accounts={customAccounts} selected={values?.selected_account_ids} error={errors.selected_account_ids?.[0]} query={query} /> : null}
              <FormErrors errors={otherErrors} />
              <button type="submit" className="btn-primary" disabled={busy}>
                Save
              </button>
            </Form>
            {own ? (
              <Form method="post" className="border-t border-slate-100 pt-3">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="config_id" value={own.id} />
                <button type="submit" className="btn" disabled={busy}>
                  Remove this {level}&apos;s own template
                </button>
                <span className="ml-2 text-xs text-slate-600">{parent.type === "customer" ? "Sites and accounts with their own keep theirs." : "The level above applies again."}</span>
              </Form>
            ) : null}
          </section>

          <LevelsTable data={data} query={query} />
        </>
      )}
      <SetHere data={data} />
    </div>
  );
}
