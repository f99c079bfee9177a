import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { URL_COPIED } from "~/modules/tracking/public-link";
import { trapTab } from "~/components/trap-tab";
import { apiFetch } from "~/utils/api-client";
import { copyText } from "~/utils/clipboard";

/**
 * The Tracking URL button and its modal (spec 1 sections 2 and 4): the consignment's public link
 * with Copy URL ('URL Copied') and New link, which replaces it so the old one stops working.
 * Without JavaScript the button opens the page with ?link=1, whose loader brings the link, and
 * New link is a form post; with it, the modal asks GET /api/create_tracktrace_url/{id} and traps
 * focus as a native modal dialog does, returning it to the button on close.
 */
export function TrackingUrlDialog({ consignmentId, open, url: initialUrl, closeHref }: { consignmentId: number; open: boolean; url: string | null; closeHref: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLAnchorElement>(null);
  const [url, setUrl] = useState(initialUrl);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  // rendered open by the server (?link=1): made modal once the script runs, so focus stays inside
  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.matches(":modal")) {
      d.close();
      d.showModal();
      d.querySelector<HTMLInputElement>("#tracking-url")?.focus();
    }
  }, [open]);

  const show = async () => {
    setMessage(null);
    setError(null);
    setConfirming(false);
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLInputElement>("#tracking-url")?.focus();
    const res = await apiFetch<{ url: string }>(`/api/create_tracktrace_url/${consignmentId}`);
    if (res.ok) setUrl(res.data.url);
    else setError(res.message);
  };

  const copy = async () => {
    if (!url) return;
    await copyText(url, dialog.current?.querySelector<HTMLInputElement>("input[name=tracking_url]"));
    setMessage(URL_COPIED);
  };

  const replace = async () => {
    const res = await apiFetch<{ url: string }>(`/api/create_tracktrace_url/${consignmentId}`, { method: "POST" });
    setConfirming(false);
    if (res.ok) {
      setUrl(res.data.url);
      setMessage("A new link was made. The previous link no longer works.");
    } else setError(res.message);
  };

  const close = () => {
    dialog.current?.close();
    // the server-rendered ?link=1 leaves the address as it was before the modal opened
    if (open) window.history.replaceState(window.history.state, "", closeHref);
    button.current?.focus();
  };

  return (
    <>
      <Link
        ref={button}
        to="?link=1"
        className="btn"
        onClick={(e) => {
          e.preventDefault();
          void show();
        }}
      >
        Tracking URL
      </Link>
      <dialog
        ref={dialog}
        open={open}
        onClose={() => setConfirming(false)}
        // a native modal makes the page inert, but Tab past its last control reaches the browser's toolbar
        onKeyDown={trapTab}
        className="w-full max-w-xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
        aria-labelledby="tracking-url-title"
        data-testid="tracking-url-dialog"
      >
        <div className="space-y-3 p-4">
          <h2 id="tracking-url-title" className="text-lg font-semibold">
            Tracking URL
          </h2>
          <p className="text-sm text-slate-600">Anyone with this link can follow the consignment without signing in: its state, estimated delivery date, events and proof of delivery.</p>
          {error ? (
            <p role="alert" className="field-error">
              {error}
            </p>
          ) : null}
          {/* the link's field is there from the start, so the modal opens on it (not on New link) */}
          <div className="flex gap-2">
            <label htmlFor="tracking-url" className="sr-only">
              Tracking URL
            </label>
            <input id="tracking-url" name="tracking_url" className="input flex-1 font-mono text-xs" readOnly value={url ?? ""} placeholder={error ? "" : "Loading…"} aria-busy={!url && !error} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="btn-primary" disabled={!url} onClick={() => void copy()}>
              Copy URL
            </button>
          </div>
          <p role="status" className="min-h-5 text-sm text-emerald-700" data-testid="tracking-url-status">
            {message}
          </p>
          {confirming ? (
            <div className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" role="group" aria-labelledby="replace-link-question">
              <p id="replace-link-question">Make a new link? Whoever has the current link will no longer be able to open it.</p>
              <div className="mt-2 flex gap-2">
                <button type="button" className="btn-primary" onClick={() => void replace()} autoFocus>
                  Yes
                </button>
                <button type="button" className="btn" onClick={() => setConfirming(false)}>
                  No
                </button>
              </div>
            </div>
          ) : null}
          <div className="flex justify-between gap-2">
            {/* without JavaScript New link posts the page's form; with it, it asks first */}
            <Form method="post" replace>
              <button
                type="submit"
                name="intent"
                value="replace_link"
                className="btn"
                onClick={(e) => {
                  e.preventDefault();
                  setConfirming(true);
                }}
              >
                New link
              </button>
            </Form>
            {/* a link back without JavaScript; with it, closes the modal where it is */}
            <Link
              to={closeHref}
              replace
              className="btn"
              onClick={(e) => {
                e.preventDefault();
                close();
              }}
            >
              Close
            </Link>
          </div>
        </div>
      </dialog>
    </>
  );
}
