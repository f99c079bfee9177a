import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { createPortal } from "react-dom";
import { localTime } from "~/modules/calendar/site-time";
import { fieldLabel, MESSAGES, SAVE_BLOCK_MS, type ChangeJson, type InformationJson } from "~/modules/consignments/information";
import { apiFetch } from "~/utils/api-client";
import { trapTab } from "~/components/trap-tab";
import { InformationForm } from "./InformationForm";

export type Change = ChangeJson;

export interface InformationData {
  information: InformationJson;
  changes: Change[];
  itemChanges: Change[];
}

/**
 * Info (admins, super admins and devs; a saved consignment): a link to its information page,
 * which works without JavaScript; with it, the same content in a modal that asks the three
 * /api calls, traps focus, closes with Escape or Close and gives focus back to the button.
 */
export function InfoButton({ consignmentId }: { consignmentId: number }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLAnchorElement>(null);
  const [data, setData] = useState<InformationData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const href = `/consignment/${consignmentId}/information`;
  // the dialog lives in <body>: the screen's footer sits inside its own form, and forms do not nest
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);

  const load = async () => {
    const [information, changes, items] = await Promise.all([
      apiFetch<InformationJson>(`/api/consignment_information?id=${consignmentId}`),
      apiFetch<{ changes: Change[] }>(`/api/consignment_changes?id=${consignmentId}`),
      apiFetch<{ changes: Change[] }>(`/api/item_changes?id=${consignmentId}`),
    ]);
    if (information.ok && changes.ok && items.ok) {
      setError(null);
      setData({
        information: information.data,
        changes: changes.data.changes,
        itemChanges: items.data.changes,
      });
    } else setError([information, changes, items].map((r) => (r.ok ? null : r.message)).find(Boolean) ?? "Could not load the information.");
  };
  const open = () => {
    setData(null);
    setError(null);
    dialog.current?.showModal();
    void load();
  };
  const close = () => dialog.current?.close();

  return (
    <>
      <Link
        ref={button}
        to={href}
        className="btn"
        data-button="info"
        onClick={(e) => {
          e.preventDefault();
          open();
        }}
      >
        Info
      </Link>
      {mounted
        ? createPortal(
            <dialog
              ref={dialog}
              className="w-full max-w-5xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
              aria-labelledby="info-title"
              data-testid="info-dialog"
              onKeyDown={trapTab}
              // Escape and Close both end here: focus goes back to the button that opened it
              onClose={() => button.current?.focus()}
            >
              <div className="space-y-3 p-4">
                <h2 id="info-title" className="text-lg font-semibold">
                  Consignment information
                </h2>
                {error ? (
                  <p role="alert" className="field-error">
                    {error}
                  </p>
                ) : null}
                {!data && !error ? <p className="text-sm text-slate-500">Loading…</p> : null}
                {data ? <InformationView data={data} closeButton={{ onClose: close }} onSaved={load} /> : null}
                {!data ? (
                  <button type="button" className="btn" onClick={close}>
                    Close
                  </button>
                ) : null}
              </div>
            </dialog>,
            document.body
          )
        : null}
    </>
  );
}

/**
 * The information: the field/value table (a super admin's edit form), the buttons (Close, Site,
 * Download Files, Info Save), the change history and the item audit history. The page without
 * JavaScript posts the form; the modal sends PUT /api/consignments/{id} { superadmin: true }.
 */
export function InformationView({
  data,
  closeButton,
  onSaved,
  page,
  headingLevel = 3,
}: {
  data: InformationData;
  /** the section headings' level: under the modal's h2, or the page's h1 */
  headingLevel?: 2 | 3;
  /** the modal's Close; the page's is a link back to the consignment */
  closeButton: { onClose: () => void } | { href: string };
  /** the modal: reload after a save */
  onSaved?: () => Promise<void>;
  /** the page: the post's outcome */
  page?: {
    errors: Record<string, string[]>;
    message: string | null;
    saved: boolean;
    /** what the refused post had typed */
    values?: Record<string, string>;
  };
}) {
  const { information: info } = data;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const [errors, setErrors] = useState<Record<string, string[]>>(page?.errors ?? {});
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(page?.saved ? { text: MESSAGES.saved, ok: true } : page?.message ? { text: page.message, ok: false } : null);
  const [blocked, setBlocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  // saving is blocked for 5 s after an attempt (spec 2 section 5); the server refuses it too
  const attempt = () => {
    setBlocked(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setBlocked(false), SAVE_BLOCK_MS);
  };
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    if (!onSaved) {
      attempt();
      return; // the page posts the form
    }
    e.preventDefault();
    attempt();
    const form = new FormData(e.currentTarget);
    const json: Record<string, unknown> = { superadmin: true };
    for (const [k, v] of form) if (typeof v === "string") json[k] = v;
    const res = await apiFetch<{ version: number }>(`/api/consignments/${info.id}`, { method: "PUT", json });
    if (res.ok) {
      setErrors({});
      setMessage({ text: MESSAGES.saved, ok: true });
      await onSaved();
    } else {
      setMessage({ text: res.message, ok: false });
    }
  };

  return (
    <div className="space-y-4" data-testid="consignment-information">
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-emerald-700" : "field-error"} data-testid="info-message">
          {message.text}
        </p>
      ) : null}
      {/* a new version (after a save) starts the inputs from what was saved */}
      <InformationForm key={info.version} info={info} errors={errors} typed={page?.values} onSubmit={(e) => void submit(e)} />
      <div className="flex flex-wrap items-start gap-2">
        {"href" in closeButton ? (
          <Link to={closeButton.href} className="btn">
            Close
          </Link>
        ) : (
          <button type="button" className="btn" onClick={closeButton.onClose}>
            Close
          </button>
        )}
        <a className="btn" href={info.site.href} title={`${info.site.name} (${info.site.code})`} aria-label={`Site ${info.site.name} (${info.site.code})`}>
          Site
        </a>
        <details className="relative" data-testid="download-files">
          <summary className="btn cursor-pointer list-none">Download Files</summary>
          <ul className="absolute z-20 mt-1 min-w-56 rounded border border-slate-200 bg-white py-1 text-sm shadow-lg">
            {info.documents.length ? (
              info.documents.map((d) => (
                <li key={d.type}>
                  <a className="block px-3 py-1 hover:bg-slate-100" href={d.href} target="_blank" rel="noreferrer">
                    {d.name}
                  </a>
                </li>
              ))
            ) : (
              <li className="px-3 py-1 text-slate-500">No documents have been printed for it yet.</li>
            )}
          </ul>
        </details>
        {info.can_edit ? (
          <button type="submit" form="info-form" name="intent" value="info_save" className="btn-primary" disabled={blocked} aria-describedby="info-save-hint">
            Info Save
          </button>
        ) : null}
        {info.can_edit ? (
          <span id="info-save-hint" className="self-center text-xs text-slate-500">
            {blocked ? "Saving is blocked for 5 seconds after an attempt." : "Super admins only."}
          </span>
        ) : null}
      </div>
      <section aria-labelledby="info-changes-title">
        <Heading id="info-changes-title" className="font-semibold">
          Change history
        </Heading>
        <ChangesTable changes={data.changes} timeZone={info.time_zone} country={info.country} testId="info-changes" />
      </section>
      <section aria-labelledby="info-items-title">
        <Heading id="info-items-title" className="font-semibold">
          Item audit history
        </Heading>
        <ChangesTable changes={data.itemChanges} timeZone={info.time_zone} country={info.country} testId="info-item-changes" items />
      </section>
    </div>
  );
}

/** The changes, newest as the /api answers them; each time as the site reads it (its zone and date format). */
export function ChangesTable({ changes, timeZone, country, testId, items }: { changes: Change[]; timeZone: string | null; country: string; testId?: string; items?: boolean }) {
  if (!changes.length) return <p className="text-sm text-slate-500">No changes recorded.</p>;
  return (
    <div className="max-h-[40vh] overflow-auto" tabIndex={0} role="region" aria-label={items ? "Item audit history" : "Change history"}>
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            {items ? <th className="py-1 pr-2">Item</th> : null}
            <th className="py-1 pr-2">Version</th>
            <th className="py-1 pr-2">Field</th>
            <th className="py-1 pr-2">From</th>
            <th className="py-1 pr-2">To</th>
            <th className="py-1 pr-2">By</th>
            <th className="py-1">At</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {changes.map((c, i) => (
            <tr key={i}>
              {items ? <td className="py-1 pr-2">{c.item_id}</td> : null}
              <td className="py-1 pr-2">{c.version}</td>
              <td className="py-1 pr-2 font-mono text-xs" title={fieldLabel(c.field)}>
                {c.field}
              </td>
              <td className="py-1 pr-2 break-all">{c.from}</td>
              <td className="py-1 pr-2 break-all">{c.to}</td>
              <td className="py-1 pr-2">{c.by}</td>
              <td className="py-1 whitespace-nowrap">
                <time dateTime={c.at}>{localTime(new Date(c.at), timeZone, country)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
