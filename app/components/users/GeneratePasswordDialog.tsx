import { useEffect, useRef, useState } from "react";
import { trapTab } from "~/components/trap-tab";
import { apiFetch } from "~/utils/api-client";
import { copyText } from "~/utils/clipboard";

/** Spec 2 section 9: the "copied" confirmation hides after 3 s. */
export const COPIED_MS = 3000;

/**
 * The generated-password modal of the user screen (spec 2 "Users"): asks GET /api/generate_password,
 * shows the password with Copy ("copied" hides after 3 s) and "Use this password", which fills the
 * password and confirmation fields. A native modal dialog traps focus; closing returns it to the
 * button. Without JavaScript the screen shows a server-generated suggestion instead.
 */
export function GeneratePasswordDialog({ onUse }: { onUse: (password: string) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [password, setPassword] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const open = async () => {
    setPassword(null);
    setError(null);
    setCopied(false);
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLInputElement>("#generated-password")?.focus();
    const res = await apiFetch<{ password: string }>("/api/generate_password");
    if (res.ok) setPassword(res.data.password);
    else setError(res.message);
  };

  const copy = async () => {
    if (!password) return;
    await copyText(password, dialog.current?.querySelector<HTMLInputElement>("#generated-password"));
    setCopied(false);
    // a second copy shows the confirmation again for its own 3 s
    requestAnimationFrame(() => setCopied(true));
  };

  const close = () => dialog.current?.close();

  return (
    <>
      <button ref={opener} type="button" className="btn" onClick={() => void open()}>
        Generate password
      </button>
      <dialog
        ref={dialog}
        onClose={() => opener.current?.focus()}
        onKeyDown={trapTab}
        className="w-full max-w-md rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
        aria-labelledby="generate-password-title"
        data-testid="generate-password-dialog"
      >
        <div className="space-y-3 p-4">
          <h2 id="generate-password-title" className="text-lg font-semibold">
            Generate a password
          </h2>
          {error ? (
            <p role="alert" className="field-error">
              {error}
            </p>
          ) : null}
          {/* the password field is there from the start, so the modal opens on it (not on Close) */}
          <div className="flex gap-2">
            <label htmlFor="generated-password" className="sr-only">
              Generated password
            </label>
            <input id="generated-password" className="input flex-1 font-mono" readOnly value={password ?? ""} placeholder={error ? "" : "Generating…"} aria-busy={!password && !error} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="btn" disabled={!password} onClick={() => void copy()}>
              Copy
            </button>
          </div>
          <p role="status" className="min-h-5 text-sm text-emerald-700" data-testid="password-copied">
            {copied ? "copied" : ""}
          </p>
          <div className="flex justify-end gap-2">
            <button
              type="button"
              className="btn-primary"
              disabled={!password}
              onClick={() => {
                if (password) onUse(password);
                close();
              }}
            >
              Use this password
            </button>
            <button type="button" className="btn" onClick={close}>
              Close
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
