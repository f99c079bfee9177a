/**
 * One finance section of docs/performance.md measured again and written in place, the rest of the
 * file left as it is: `NODE_ENV=production DATABASE_URL=... npx tsx bench/section.ts reconcile`
 * (or reconciliations-list, invoice-import, allocation, files, shipping-rules, webhooks, insight, requests, exports). `npm run bench` measures them all.
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { seedDemo } from "../db/seed/demo";
import { startTestServer } from "../tests/support/server";
import { allocationSection } from "./allocation";
import { filesSection } from "./files";
import { invoiceImportSection } from "./invoice-import";
import { reconcileSection } from "./reconcile";
import { reconciliationsListSection } from "./reconciliations-list";
import { shippingRulesSection } from "./shipping-rules";
import { webhooksSection } from "./webhooks";
import { insightSection } from "./insight";
import { requestsSection } from "./requests";
import { exportsSection } from "./exports";
import { prepareBench } from "./setup";

const SECTIONS: Record<string, () => Promise<string[]>> = {
  reconcile: reconcileSection,
  "reconciliations-list": reconciliationsListSection,
  allocation: allocationSection,
  files: filesSection,
  "shipping-rules": shippingRulesSection,
  webhooks: webhooksSection,
  insight: insightSection,
  requests: requestsSection,
  exports: async () => {
    const server = await startTestServer();
    try {
      return await exportsSection(await prepareBench(server));
    } finally {
      await server.close();
    }
  },
  "invoice-import": async () => {
    const server = await startTestServer();
    try {
      // as npm run bench's server has it: the demo's carriers and users
      await seedDemo(server.db);
      return await invoiceImportSection(server.db, server.test.database.url);
    } finally {
      await server.close();
    }
  },
};

/** Where the section under `heading` lies in `lines`: from its heading to the next "## " (or the end); null when absent. */
function sectionBounds(lines: string[], heading: string): { start: number; end: number } | null {
  const start = lines.indexOf(heading);
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return { start, end: end < 0 ? lines.length : end };
}

/** The section of `doc` under `heading`, its heading included; empty when there is none. */
export function sectionOf(doc: string, heading: string): string[] {
  const lines = doc.split("\n");
  const at = sectionBounds(lines, heading);
  return at ? lines.slice(at.start, at.end) : [];
}

/** The file with the section that starts with the same "## " heading replaced (or added at the end). */
export function replaceSection(doc: string, section: string[]): string {
  const heading = section.find((l) => l.startsWith("## "));
  if (!heading) throw new Error("a section starts with its ## heading");
  const lines = doc.split("\n");
  const at = sectionBounds(lines, heading);
  if (!at) return [...lines, ...section].join("\n");
  return [...lines.slice(0, at.start), ...section, ...lines.slice(at.end)].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const name = process.argv[2] ?? "";
  const run = SECTIONS[name];
  if (!run) {
    console.error(`usage: tsx bench/section.ts ${Object.keys(SECTIONS).join("|")}`);
    process.exit(2);
  }
  console.log(`${new Date().toISOString()} on ${os.cpus().length} x ${os.cpus()[0]?.model}, Node ${process.version}`);
  const section = await run();
  const at = section.findIndex((l) => l.startsWith("## "));
  const note = `_Measured again on its own ${new Date().toISOString().slice(0, 10)} (\`bench/section.ts ${name}\`, ${os.cpus().length} x ${os.cpus()[0]?.model}, Node ${process.version}, ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}, NODE_ENV=${process.env.NODE_ENV ?? "unset"}); the rest of this file is from the date at its top._`;
  const dated = [...section.slice(0, at + 1), "", note, ...section.slice(at + 1)];
  writeFileSync("docs/performance.md", replaceSection(readFileSync("docs/performance.md", "utf8"), dated));
  console.log(dated.join("\n"));
  process.exit(0);
}
