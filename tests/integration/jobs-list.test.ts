/**
 * The admin's job list (GET /jobs, issue 30 item 3): a file upgrade's report of missing files is
 * found there, with every file it names; the status filter and page are in the URL; staff only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { FILE_UPGRADE_JOB } from "../../app/modules/files/upgrade.server";
import { JOBS_PER_PAGE } from "../../app/modules/jobs/list.server";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
const client = () => new Client(server.url);

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
}, 180_000);
afterAll(() => server?.close());

describe("the job list", () => {
  it("shows the file upgrade's report with every missing file, filters by status in the URL and pages", async () => {
    const missing = ["invoice 12: lost-march.csv", "invoice 13: receivable/R1001.pdf"];
    await server.db.insert(jobs).values({ name: FILE_UPGRADE_JOB, status: "failed", pctComplete: 100, message: "File upgrade: 3 files moved into the file store; 2 referenced but missing (the rows are kept).", errors: missing });
    await server.db.insert(jobs).values(Array.from({ length: JOBS_PER_PAGE + 1 }, (_, i) => ({ name: "exports.csv", status: "complete" as const, pctComplete: 100, message: `export ${i}`, createdAt: new Date(Date.now() - 3_600_000 - i * 1000) })));
    const admin = client();
    await admin.signIn("customerservice@example.com");

    const failed = await (await admin.request("/jobs?status=failed")).text();
    expect(failed).toContain("2 referenced but missing (the rows are kept).");
    for (const m of missing) expect(failed).toContain(m);
    expect(failed).toContain("2 errors");
    expect(failed).not.toContain("export 0");

    const all = await (await admin.request("/jobs")).text();
    expect(all).toContain("page 1 of 2");
    expect(all).toContain(FILE_UPGRADE_JOB);
    const second = await (await admin.request("/jobs?page=2")).text();
    expect(second).toContain("page 2 of 2");
    // a filter the list does not know is ignored, not an error
    expect((await admin.request("/jobs?status=nonsense&page=x")).status).toBe(200);
  });

  it("is for staff: a customer's user is sent home", async () => {
    const d = client();
    await d.signIn("despatcher@example.com");
    expect((await d.request("/jobs")).headers.get("location")).toBe("/");
  });
});
