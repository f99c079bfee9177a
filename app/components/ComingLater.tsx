import { Link } from "@remix-run/react";

/** The page a planned screen shows until its release lands (see modules/shell/planned.ts). */
export function ComingLater({ title, release }: { title: string; release: string }) {
  return (
    <div className="card max-w-2xl" data-testid="coming-later">
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-slate-700">
        This screen is coming in a later release ({release}). Everything else you can reach from the menu works today.
      </p>
      <Link to="/home" className="btn mt-4">
        Go to home
      </Link>
    </div>
  );
}
