import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { jobStatusFor } from "~/modules/jobs/jobs.server";
import { api } from "~/utils/http.server";

/** GET /api/job_status/{jobId}: status, pct_complete, message, errors, info (scoped as its subject: jobStatusFor). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return jobStatusFor(context.db, user, params.jobId ?? "");
  });
}
