import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The page a planned screen shows until its release lands (see modules/shell/planned.ts). */
export function ComingLater({ title, release, children, back }: { title: string; release: string; children?: ReactNode; back?: { to: string; label: string } }) {
  return (
    <div className="card max-w-2xl" data-testid="coming-later">
      <h1 className="text-xl font-semibold">{title}</h1>
      {children}
      <p className="mt-2 text-slate-700">
        This screen is coming in a later release ({release}). Everything else you can reach from the menu works today.
      </p>
      <Link to={back?.to ?? "/home"} className="btn mt-4">
        {back?.label ?? "Go to home"}
      </Link>
    </div>
  );
}
