/**
 * `npm run bench`: measures the paths every request pays for, against PostgreSQL when
 * DATABASE_URL is set (a fresh database, dropped afterwards), else embedded PGlite, and writes
 * docs/performance.md with the machine and date. Needs `npm run build` first.
 *
 * The measures, in the order they run: rating (bench/rating.ts), consignment entry and printing
 * (bench/entry-printing.ts), despatch and the list (bench/despatch-list.ts), the web processes
 * (bench/processes.ts), then sign-in and the per-request authentication (here), then the export
 * report (bench/exports.ts), the customers list and the recipients (bench/customers.ts,
 * bench/recipients.ts) and, last because it adds about 1,000,000 consignments, the searches
 * (bench/search.ts), then the bulk upload, checkout rates and the carrier invoice import
 * (bench/invoice-import.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { startTestServer } from "../tests/support/server";
import { benchDespatch, benchList, despatchListSection } from "./despatch-list";
import { benchEntry, benchPrinting, entrySection, printingSection } from "./entry-printing";
import { load, loadFrom, tableRows, type Stats, TABLE_HEAD } from "./measure";
import { benchWebProcesses, webProcessesSection } from "./processes";
import { benchRating, ratingSection } from "./rating";
import { prepareBench } from "./setup";
import { measureFloor, startFloorServer } from "./floor";
import { trackingSection } from "./tracking";
import { exportsSection } from "./exports";
import { searchSection } from "./search";
import { customersSection } from "./customers";
import { recipientsSection } from "./recipients";
import { bulkUploadSection } from "./bulk-upload";
import { checkoutRatesSection } from "./checkout-rates";
import { invoiceImportSection } from "./invoice-import";
import { allocationSection } from "./allocation";
import { reconcileSection } from "./reconcile";
import { invoicingSection } from "./invoicing";
import { reconciliationsListSection } from "./reconciliations-list";
import { filesSection } from "./files";
import { shippingRulesSection } from "./shipping-rules";
import { webhooksSection } from "./webhooks";
import { insightSection } from "./insight";
import { requestsSection } from "./requests";
import { sectionOf } from "./section";

const PROFILE_HEADING = "## Where an ordinary request's time goes";

/** A section of the current docs/performance.md, to carry over (empty when there is none). */
const keptSection = (heading: string) => (existsSync("docs/performance.md") ? sectionOf(readFileSync("docs/performance.md", "utf8"), heading) : []);

const server = await startTestServer();
const floorServer = await startFloorServer();
try {
  const bench = await prepareBench(server);
  const { client, headers } = bench;
  // first, so every request row after it is read against the floor of this run (issue 32)
  const floorRows = await measureFloor(floorServer);
  const rating = await benchRating(bench);
  const { rows: entry, tenLines } = await benchEntry(bench);
  const printing = await benchPrinting(bench, tenLines);
  const despatch = await benchDespatch(bench, tenLines);
  const list = await benchList(bench);
  const tracking = await trackingSection(server, bench.demo.acme.id, bench.demo.sites.melbourne.id);

  // the same server as `npm start` runs it, with 1 and with 2 web processes (several need PostgreSQL)
  const webProcesses = server.test.database.url
    ? await benchWebProcesses(server.test.database.url, { cookie: client.cookie, ratingBody: JSON.stringify(rating.ratingPayload), listPath: "/consignments/metadata/today?site=all" })
    : null;

  const results: Array<[string, Stats]> = [
    // the floor every other request row of this file is read against
    ...floorRows,
    [
      "sign-in (POST /users/sign_in, argon2id verify + session), 1 caller",
      await load(40, 1, () =>
        fetch(`${server.url}/users/sign_in`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ user: { email: "despatcher@example.com", password: "Demo-password-12" } }),
        }),
      ),
    ],
    ["GET /api/users/current (session + user load), 20 callers (separate process)", await loadFrom({ url: `${server.url}/api/users/current`, headers: { ...headers, "accept-encoding": "identity" }, total: 2000, concurrency: 20 })],
    ["GET /home page (shell + notices, server render), 10 callers", await load(500, 10, () => fetch(`${server.url}/home`, { headers: { cookie: client.cookie } }))],
  ];

  const exportsLines = await exportsSection(bench);
  const customersLines = await customersSection(bench);
  const recipientsLines = await recipientsSection(bench);
  const searchLines = await searchSection(bench);
  const bulkUploadLines = await bulkUploadSection(bench);
  const checkoutLines = await checkoutRatesSection(bench);
  const invoiceImportLines = await invoiceImportSection(server.db, server.test.database.url);
  const allocationLinesOut = await allocationSection();
  const reconcileLinesOut = await reconcileSection();
  const invoicingLinesOut = await invoicingSection(server.db, server.renderer, server.test.database.kind);
  const reconciliationsListLinesOut = await reconciliationsListSection();
  const filesLinesOut = await filesSection();
  const shippingRulesLinesOut = await shippingRulesSection();
  const webhooksLinesOut = await webhooksSection();
  const insightLinesOut = await insightSection();
  // issue 32: the ordinary request as `npm start` serves it, beside the floor (a server of its own)
  const requestsLines = await requestsSection();

  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const lines = [
    "# Performance",
    "",
    "Figures from `npm run bench` (bench/run.ts). Latency in milliseconds, measured by the caller over",
    "HTTP on loopback against the real server (Express, Remix build, modules).",
    "",
    `- Date: ${new Date().toISOString().slice(0, 10)}`,
    `- Machine: ${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version} (NODE_ENV=${process.env.NODE_ENV ?? "unset"}), ${os.platform()} ${os.release()}`,
    `- Database: ${server.test.database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite"}`,
    "",
    "## Foundation: sign-in and per-request authentication",
    "",
    ...TABLE_HEAD,
    ...tableRows(results),
    "",
    "Sign-in is deliberately slow: argon2id with 19 MiB and 2 passes (OWASP's profile) costs tens of",
    "milliseconds per attempt, which is what makes a stolen hash expensive to attack. Every other",
    "request pays one query for its session and user (the session by primary key, the user with the",
    "customer they work in and their sites; last_seen_at is written at most once a minute).",
    "",
    "Rows marked (separate process) load the server from another Node process (bench/load.mjs),",
    "without compression, so the server has one core and the caller the other; the other rows share",
    "the server's process. Except under \"Web processes\", the server is one Node process (the bench's own):",
    "its throughput is bounded by one core, and with 20 callers each waits for the 19 ahead of it, so p95",
    "is roughly 20 / (calls per second).",
    "",
    ...requestsLines,
    // written by hand from bench/profile.ts: carried over as it is
    ...keptSection(PROFILE_HEADING),
    ...ratingSection(rating),
    ...entrySection(entry),
    ...printingSection(printing),
    ...despatchListSection(despatch, list),
    ...tracking,
    ...webProcessesSection(webProcesses),
    ...exportsLines,
    ...customersLines,
    ...recipientsLines,
    ...searchLines,
    ...bulkUploadLines,
    ...checkoutLines,
    ...allocationLinesOut,
    ...reconcileLinesOut,
    ...reconciliationsListLinesOut,
    ...invoicingLinesOut,
    ...invoiceImportLines,
    ...filesLinesOut,
    ...shippingRulesLinesOut,
    ...webhooksLinesOut,
    ...insightLinesOut,
  ];
  writeFileSync("docs/performance.md", lines.join("\n"));
  console.log(lines.join("\n"));
} finally {
  await floorServer.stop();
  await server.close();
}
