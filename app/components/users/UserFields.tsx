import { useRef, useState, type ReactNode } from "react";
import { FLAGS, MORE_FLAGS, roleHasSites, type UserAdminJson } from "~/modules/users/admin";
import type { RoleName } from "~/modules/auth/roles";
import type { FieldErrors } from "~/utils/errors";
import { apiFetch } from "~/utils/api-client";
import { FieldError } from "~/components/Field";
import type { UserClock } from "~/modules/calendar/user-clock";
import { DATE_FORMATS } from "~/modules/calendar/user-clock";
import { GeneratePasswordDialog } from "./GeneratePasswordDialog";

const FLAG_LABELS: Record<(typeof FLAGS)[number] | (typeof MORE_FLAGS)[number], string> = {
  can_bulkupload: "Can bulk upload",
  can_bulkquote: "Can bulk quote",
  can_book: "Can book",
  can_export: "Can export",
  can_reconcile: "Can reconcile",
  can_edit_recipients: "Can edit recipients",
  super_despatcher: "Super despatcher",
  despatcher_only: "Despatcher only",
};

interface Props {
  user: UserAdminJson | null;
  /** when the user was locked, in the reader's clock (server-formatted: the browser's zone never shows) */
  lockedLocal: string | null;
  /** what "Default" means for this user, and the zones to choose from (decision 032) */
  clock: { inherited: UserClock; zones: string[] };
  /** what was posted, after a refused save */
  values: Record<string, unknown> | null;
  errors: FieldErrors;
  sites: Array<{ id: number; code: string; name: string }>;
  roles: RoleName[];
  superAdmin: boolean;
  self: boolean;
  suggestedPassword: string;
}

/** The user screen's fields (spec 2 "User"): details, role, sites where the role has them, flags, password, token, locked and disabled. */
export function UserFields({ user, lockedLocal, clock, values, errors, sites, roles, superAdmin, self, suggestedPassword }: Props) {
  const value = (k: string, stored: unknown) => String(values?.[k] ?? stored ?? "");
  const checked = (k: string, stored: boolean | undefined) => (values ? Boolean(values[k]) : Boolean(stored));
  const [role, setRole] = useState<string>(value("role", user?.role ?? "despatcher"));
  const password = useRef<HTMLInputElement>(null);
  const confirmation = useRef<HTMLInputElement>(null);
  const token = useRef<HTMLInputElement>(null);
  const [tokenError, setTokenError] = useState<string | null>(null);
  const chosenSites = new Set((values?.site_ids as string[] | undefined)?.map(Number) ?? user?.site_ids ?? []);
  const a11y = (field: string) => ({ "aria-invalid": errors[field]?.length ? true : undefined, "aria-describedby": errors[field]?.length ? `${field}-error` : undefined });
  const text = (field: string, label: string, stored: unknown, extra: { type?: string; required?: boolean; autoComplete?: string } = {}): ReactNode => (
    <div>
      <label htmlFor={field} className="label">
        {label}
      </label>
      <input id={field} name={field} type={extra.type ?? "text"} required={extra.required} autoComplete={extra.autoComplete} defaultValue={value(field, stored)} className="input" {...a11y(field)} />
      <FieldError id={`${field}-error`} errors={errors[field]} />
    </div>
  );
  const roleList = user && !roles.includes(user.role) ? [...roles, user.role] : roles;

  return (
    <>
      {text("email", "Email", user?.email, { type: "email", required: true, autoComplete: "off" })}
      {text("full_name", "Full name", user?.full_name, { required: true })}
      {text("phone_number", "Phone number", user?.phone_number, { type: "tel" })}
      {text("zendesk_id", "Zendesk id", user?.zendesk_id)}
      <div>
        <label htmlFor="role" className="label">
          Role
        </label>
        <select id="role" name="role" className="input w-64" value={role} onChange={(e) => setRole(e.currentTarget.value)} disabled={self} {...a11y("role")}>
          {roleList.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {/* a disabled select posts nothing: one's own role goes as it is */}
        {self ? <input type="hidden" name="role" value={role} /> : null}
        <FieldError id="role-error" errors={errors.role} />
      </div>
      {roleHasSites(role as RoleName) ? (
        <fieldset className="space-y-1" aria-describedby={errors.site_ids?.length ? "site_ids-error" : undefined}>
          <legend className="label">Sites</legend>
          {sites.map((s) => (
            <label key={s.id} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="site_ids" value={s.id} defaultChecked={chosenSites.has(s.id)} />
              {s.name} ({s.code})
            </label>
          ))}
          <FieldError id="site_ids-error" errors={errors.site_ids} />
          <label htmlFor="site_id" className="label">
            Default site
          </label>
          <select id="site_id" name="site_id" className="input w-64" defaultValue={value("site_id", user?.site_id)} {...a11y("site_id")}>
            <option value="">None</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.code})
              </option>
            ))}
          </select>
          <FieldError id="site_id-error" errors={errors.site_id} />
        </fieldset>
      ) : (
        <p className="text-sm text-slate-600">This role sees every site of the customer.</p>
      )}
      <fieldset className="space-y-2">
        <legend className="label">Dates and times</legend>
        <div>
          <label htmlFor="timezone" className="label">
            Time zone
          </label>
          <select id="timezone" name="timezone" className="input w-64" defaultValue={value("timezone", user?.timezone)} {...a11y("timezone")}>
            <option value="">Default ({clock.inherited.timeZone})</option>
            {clock.zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
          <FieldError id="timezone-error" errors={errors.timezone} />
        </div>
        <div>
          <label htmlFor="date_format" className="label">
            Date format
          </label>
          <select id="date_format" name="date_format" className="input w-64" defaultValue={value("date_format", user?.date_format)} {...a11y("date_format")}>
            <option value="">Default ({clock.inherited.dateFormat})</option>
            {DATE_FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          <FieldError id="date_format-error" errors={errors.date_format} />
        </div>
      </fieldset>
      <fieldset className="grid grid-cols-2 gap-1">
        <legend className="label">Permissions</legend>
        {[...FLAGS, ...MORE_FLAGS].map((f) => (
          <label key={f} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={f} defaultChecked={checked(f, user?.[f])} />
            {FLAG_LABELS[f]}
          </label>
        ))}
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="label">Set a password{user ? " (leave blank to keep the current one)" : ""}</legend>
        <p className="text-sm text-slate-600">10 or more characters with a lower case letter, an upper case letter and 2 digits.</p>
        <div>
          <label htmlFor="password" className="label">
            Password
          </label>
          <input ref={password} id="password" name="password" type="password" autoComplete="new-password" required={!user} className="input" {...a11y("password")} />
          <FieldError id="password-error" errors={errors.password} />
        </div>
        <div>
          <label htmlFor="password_confirmation" className="label">
            Password confirmation
          </label>
          <input ref={confirmation} id="password_confirmation" name="password_confirmation" type="password" autoComplete="new-password" required={!user} className="input" {...a11y("password_confirmation")} />
          <FieldError id="password_confirmation-error" errors={errors.password_confirmation} />
        </div>
        <GeneratePasswordDialog
          onUse={(p) => {
            if (password.current) password.current.value = p;
            if (confirmation.current) confirmation.current.value = p;
          }}
        />
        <noscript>
          <p className="text-sm">
            A generated password you may use: <code>{suggestedPassword}</code>
          </p>
        </noscript>
      </fieldset>
      {superAdmin ? (
        <div>
          <label htmlFor="authentication_token" className="label">
            Authentication token
          </label>
          <div className="flex gap-2">
            <input ref={token} id="authentication_token" name="authentication_token" defaultValue={value("authentication_token", user?.authentication_token)} className="input flex-1 font-mono text-xs" autoComplete="off" {...a11y("authentication_token")} />
            <button
              type="button"
              className="btn"
              onClick={async () => {
                const res = await apiFetch<{ authentication_token: string }>("/api/generate_authentication_token");
                if (res.ok && token.current) token.current.value = res.data.authentication_token;
                setTokenError(res.ok ? null : res.message);
              }}
            >
              Generate
            </button>
          </div>
          <FieldError id="authentication_token-error" errors={tokenError ? [tokenError] : errors.authentication_token} />
        </div>
      ) : null}
      {user ? (
        <div className="text-sm" data-testid="locked">
          {user.locked_at ? (
            <p className="flex items-center gap-2">
              Locked since <time dateTime={user.locked_at}>{lockedLocal}</time>
              {/* the screen's own unlock form: Enter in a field still saves */}
              <button type="submit" form="unlock-form" className="btn">
                Unlock
              </button>
            </p>
          ) : (
            <p>Not locked.</p>
          )}
        </div>
      ) : null}
      <div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="disabled" defaultChecked={checked("disabled", user?.disabled)} disabled={self} aria-describedby="disabled-hint" />
          Disabled
        </label>
        <p id="disabled-hint" className="text-xs text-slate-600">
          {self ? "You cannot disable yourself." : "A disabled user is signed out at once and cannot sign in."}
        </p>
        <FieldError id="disabled-error" errors={errors.disabled} />
      </div>
    </>
  );
}
