import type { useLoaderData } from "@remix-run/react";
import type { JobStatusJson } from "~/components/JobProgress";
import type { listLoader } from "~/modules/consignments/list-screen.server";

/** What the /consignments loader answers, as the browser sees it, and one row of a group. */
export type ListData = ReturnType<typeof useLoaderData<typeof listLoader>>;
export type Row = NonNullable<ListData["groups"][number]["rows"]>[number];

export interface DespatchInfo {
  manifest_ids?: number[];
  auspost_manifest_ids?: number[];
  despatched?: number[];
  failed?: number[];
}
export type Job = JobStatusJson & { info?: DespatchInfo | null };
