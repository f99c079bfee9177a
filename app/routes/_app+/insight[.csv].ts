import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/modules/auth/guard.server";
import { insightChartCsv } from "~/modules/insight/screen.server";
import { AppError } from "~/utils/errors";
import { toCsv } from "~/utils/csv.server";

/** GET /insight.csv?chart=…&filters: one chart's figures, as the page shows them to this reader. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    const { filename, table } = await insightChartCsv(context.db, user, new URL(request.url));
    return new Response(await toCsv(table.headers, table.rows), {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "private, no-store" },
    });
  } catch (e) {
    if (e instanceof AppError) return new Response(`${e.message}\n`, { status: e.status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    throw e;
  }
}
