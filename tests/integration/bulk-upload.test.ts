/**
 * Bulk upload (issue 17 item 4; spec 2 section 5): the template and mappings calls, the import
 * (grouping by site code, both date formats, the screen's validation and rating, skipped lines
 * with reasons and the first 100, nothing half made, the same file or rows taken once), the flags
 * that gate each kind, the size and type limits, and bulk redespatch for admins only.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkUploads, consignmentItems, consignments, files, users } from "../../db/schema";
import { ALREADY_UPLOADED, BATCH } from "../../app/modules/bulk-upload/import.server";
import { storeUploadFile, UPLOAD_GONE, UPLOAD_KEEP_DAYS } from "../../app/modules/bulk-upload/files.server";
import { readWholeFile, type StoredFile } from "../../app/modules/files/index.server";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import { futureDate, type DespatchWorld, type Json } from "../support/despatch";

let world: DespatchWorld;
let server: TestServer;
let despatcher: Client;
let admin: Client;

const HEADER = "site_code,despatch_date,reference,receiver_name,receiver_address_line_1,receiver_locality,receiver_postcode,receiver_region,carrier_code,service_code,item_type,quantity,length,width,height,weight,item_reference";
/** the despatch date as the file writes it: DD/MM/YYYY, or DD-MM-YYYY with "-" */
const day = (sep = "/", days = 7) => futureDate(days).split("-").reverse().join(sep);
const head = (reference: string, date = day(), over: Partial<Record<"site" | "carrier" | "service" | "locality" | "postcode", string>> = {}) =>
  [over.site ?? "MEL", date, reference, "Brisbane Hardware", "5 Ipswich Road", over.locality ?? "WOOLLOONGABBA", over.postcode ?? "4102", "QLD", over.carrier ?? "", over.service ?? ""].join(",");
const item = (type = "Carton", qty = "1", weight = "5", ref = "") => [type, qty, "40", "30", "20", weight, ref].join(",");
const row = (consignment: string, line: string) => `${consignment},${line}`;
const more = (line: string) => `,,,,,,,,,,${line}`;

async function setFlags(email: string, flags: { canBulkupload?: boolean; canBulkquote?: boolean }) {
  await server.db.update(users).set({ canBulkupload: false, canBulkquote: false, ...flags }).where(eq(users.email, email));
}

async function upload(client: Client, text: string, type = "consignment", path = "/api/bulk_upload/import"): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { "content-type": "text/csv", Accept: "application/json", "X-Requested-With": "XMLHttpRequest", cookie: client.cookie };
  const res = await fetch(`${client.base}${path}?type=${type}&filename=upload.csv`, { method: "POST", headers, body: text });
  return { status: res.status, body: (await res.json()) as Json };
}

async function uploadAndRun(text: string, type = "consignment", client = despatcher): Promise<Json> {
  const res = await upload(client, text, type);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const job = await support.workJob(world, res.body.job_id, client);
  expect(job.status, JSON.stringify(job)).toBe("complete");
  return { ...job, upload: res.body };
}

const made = (ids: number[]) => server.db.select().from(consignments).where(inArray(consignments.id, ids)).orderBy(asc(consignments.id));
const countByReference = async (prefix: string) =>
  Number(((await server.db.select({ n: sql<number>`count(*)::int` }).from(consignments).where(sql`${consignments.reference} like ${`${prefix}%`}`)) as [{ n: number }])[0].n);

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ despatcher, admin } = world.clients);
  await setFlags("despatcher@example.com", { canBulkupload: true });
}, 300_000);
afterAll(() => server.close());

describe("template and mappings", () => {
  it("answers the template and the column mappings, and the services the user may name", async () => {
    const template = await despatcher.request("/api/bulk_upload_template");
    expect(template.status).toBe(200);
    expect(template.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = (await template.text()).trim().split(/\r?\n/);
    expect(lines[0]!.split(",")).toEqual(
      expect.arrayContaining(["site_code", "despatch_date", "receiver_name", "item_type", "quantity", "weight", "carrier_code", "service_code", "pickup_at", "deliver_by", "deliver_at", "custom_reference", "special_requirements", "dg_un_number"]),
    );

    const mappings = await despatcher.json<Json>("/api/bulk_upload_mappings");
    expect(mappings.status).toBe(200);
    const suburb = mappings.body.mappings.find((m: Json) => m.column === "receiver_locality");
    expect(suburb).toMatchObject({ level: "consignment", required: true });
    expect(suburb.aliases).toContain("suburb");

    const services = await despatcher.json<Json>("/api/bulk_upload_mappings?type=services");
    expect(services.status).toBe(200);
    expect(services.body.services).toContainEqual(expect.objectContaining({ site_code: "MEL", carrier_code: "NORTHLINE", service_code: "GEN", needs: [] }));
    // Simulated Express collects at a booked time: its services say the file must give one
    expect(services.body.services).toContainEqual(expect.objectContaining({ site_code: "MEL", carrier_code: "SIMEX", service_code: "SDY", needs: ["pickup_at"] }));
    expect((await despatcher.json<Json>("/api/bulk_upload_mappings?type=nonsense")).status).toBe(422);
  });

  it("the template, uploaded unchanged, makes every example consignment: one per kind of service, the pickup-time service too", async () => {
    const template = await (await despatcher.request("/api/bulk_upload_template")).text();
    const [header, ...rows] = template.trim().split(/\r?\n/);
    const column = (name: string) => header!.split(",").indexOf(name);
    const heads = rows.filter((r) => r.split(",")[column("site_code")]);
    // a service without time slots and one that needs a pickup time, each named with its codes
    const named = heads.map((r) => [r.split(",")[column("carrier_code")], r.split(",")[column("service_code")], r.split(",")[column("pickup_at")]]);
    expect(named).toContainEqual(["SIMEX", expect.any(String), expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} 10:00$/)]);
    expect(named).toContainEqual([expect.any(String), expect.any(String), ""]);
    expect(rows.length).toBeGreaterThan(heads.length);

    const job = await uploadAndRun(template);
    expect(job.info).toMatchObject({ total: heads.length, created: heads.length, skipped_total: 0, skipped: [] });
    const made = await support.rowsOf(world, job.info.consignment_ids);
    expect(made.every((c) => c.state === "despatchable")).toBe(true);
    const simex = await despatcher.json<Json>(`/api/consignments/${made.find((c) => c.pickupAt)!.id}`);
    expect(simex.body).toMatchObject({ carrier_code: "SIMEX", state: "despatchable" });
    expect(simex.body.pickup_at).toMatch(/ 10:00$/);
  });

  it("the screen shows the column mappings and the carrier and service codes as tables, not raw JSON (issue 31 #6)", async () => {
    const html = await (await despatcher.request("/bulk_upload")).text();
    expect(html).not.toContain('href="/api/bulk_upload_mappings');
    expect(html).toMatch(/<section id="bulk-columns"[\s\S]*<td class="font-mono">pickup_at<\/td>/);
    expect(html).toMatch(/<section id="bulk-services"[\s\S]*<td>Same Day<\/td><td class="font-mono">SDY<\/td><td>Pickup time \(pickup_at\)<\/td>/);
  });

  it("refuses every call to a user with neither flag (403) and to no session (401)", async () => {
    await setFlags("despatcher@example.com", {});
    try {
      expect((await despatcher.request("/api/bulk_upload_template")).status).toBe(403);
      expect((await despatcher.json("/api/bulk_upload_mappings")).status).toBe(403);
      expect((await upload(despatcher, `${HEADER}\n${row(head("X"), item())}\n`)).status).toBe(403);
      expect((await despatcher.request("/bulk_upload")).status).toBe(302);
    } finally {
      await setFlags("despatcher@example.com", { canBulkupload: true });
    }
    const res = await fetch(`${server.url}/api/bulk_upload_template`, { headers: { Accept: "application/json" } });
    expect(res.status).toBe(401);
  });
});

describe("import", () => {
  it("groups rows by site code, reads both date formats, and makes each consignment as the screen's save would", async () => {
    const text = [
      HEADER,
      row(head("GRP-1"), item("Carton", "2", "10", "A1")),
      more(item("Carton", "1", "4", "A2")),
      more(item("Carton", "3", "6", "A3")),
      row(head("GRP-2", day("-"), { carrier: "NORTHLINE", service: "RXP" }), item()),
      row(head("GRP-3", day("/"), { site: "syd" }), item("carton", "1", "7")),
      "",
    ].join("\n");
    const job = await uploadAndRun(text);
    expect(job.info).toMatchObject({ total: 3, created: 3, skipped_total: 0, skipped: [] });
    expect(job.message).toBe("3 consignments created.");
    const rows = await made(job.info.consignment_ids);
    expect(rows.map((r) => r.reference)).toEqual(["GRP-1", "GRP-2", "GRP-3"]);
    expect(rows.every((r) => r.state === "despatchable" && !r.isQuote && Object.keys(r.errors).length === 0)).toBe(true);
    const [one, two, three] = rows;
    // list columns as save fills them
    expect(one).toMatchObject({ partyName: "Brisbane Hardware", itemCount: 6, despatchDate: futureDate(), itemReferences: "A1, A2, A3" });
    expect(Number(one!.totalWeight)).toBe(20);
    expect(Number(one!.totalVolume)).toBeGreaterThan(0);
    expect(one!.serviceRate).not.toBeNull();
    // no service named: the cheapest rate, as the screen picks it; named: that one
    expect(one!.cheapestCarrierService).toBeTruthy();
    const services = await despatcher.json<Json>("/api/bulk_upload_mappings?type=services");
    expect(services.status).toBe(200);
    const lines = await server.db.select().from(consignmentItems).where(eq(consignmentItems.consignmentId, one!.id)).orderBy(asc(consignmentItems.position));
    expect(lines.map((l) => [l.quantity, Number(l.weightInUom), l.reference])).toEqual([
      [2, 10, "A1"],
      [1, 4, "A2"],
      [3, 6, "A3"],
    ]);
    const got = await despatcher.json<Json>(`/api/consignments/${two!.id}`);
    expect(got.body).toMatchObject({ carrier_code: "NORTHLINE", service_code: "RXP", state: "despatchable" });
    const first = await despatcher.json<Json>(`/api/consignments/${one!.id}`);
    expect(`${first.body.carrier_code}:${first.body.service_code}`).toBe(one!.cheapestCarrierService);
    expect(first.body.sender_address).toMatchObject({ name: "Melbourne DC", postcode: "3175" });
    expect(three!.siteId).not.toBe(one!.siteId);
  });

  it("skips a consignment with any bad line whole, listing every line with its reason, and makes the good ones", async () => {
    const text = [
      HEADER,
      more(item()), // line 2: before any site code
      row(head("BAD-DATE", "2026/12/01"), item()), // 3
      row(head("BAD-ITEM"), item()), // 4: fine itself, skipped with its consignment
      more(item("Crate")), // 5: unknown item type
      more(item("Carton", "1", "")), // 6: no weight
      row(head("GOOD-1"), item()), // 7
      row(head("BAD-PLACE", day(), { locality: "NOWHERE" }), item()), // 8
      row(head("BAD-SERVICE", day(), { carrier: "NORTHLINE", service: "NOPE" }), item()), // 9
      row(head("BAD-DAY", "31/02/2027"), item()), // 10: no such day
      row(head("PAST", day("/", -3)), item()), // 11
    ].join("\n");
    const job = await uploadAndRun(text);
    expect(job.info.created).toBe(1);
    expect(job.info.total).toBe(7);
    const byLine = Object.fromEntries(job.info.skipped.map((s: Json) => [s.line, s.errors.join(" | ")]));
    expect(Object.keys(byLine).map(Number)).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 11]);
    expect(job.info.skipped_total).toBe(9);
    expect(byLine[2]).toMatch(/first row of a consignment needs a site code/);
    expect(byLine[3]).toMatch(/DD\/MM\/YYYY or DD-MM-YYYY/);
    expect(byLine[4]).toBe("Skipped with its consignment: line 5 has errors");
    expect(byLine[5]).toBe("Unknown item type Crate");
    expect(byLine[8]).toBe("Invalid receiver locality");
    expect(byLine[9]).toBe("Unknown carrier service NORTHLINE NOPE");
    expect(byLine[10]).toMatch(/DD\/MM\/YYYY or DD-MM-YYYY/);
    expect(byLine[11]).toBe("Despatch date cannot be in the past");
    expect(job.message).toBe("1 consignment created; 9 lines skipped.");
    // nothing half made: only GOOD-1 exists of this file
    for (const ref of ["BAD-DATE", "BAD-ITEM", "BAD-PLACE", "BAD-SERVICE", "BAD-DAY", "PAST"]) expect(await countByReference(ref)).toBe(0);
    expect(await countByReference("GOOD-1")).toBe(1);
  });

  it("a line with no weight is reported as the screen reports it, and its consignment is not made", async () => {
    const job = await uploadAndRun([HEADER, row(head("NOWEIGHT"), item("Carton", "1", ""))].join("\n"));
    expect(job.info.created).toBe(0);
    expect(job.info.skipped).toEqual([{ line: 2, errors: ["Must have weight"] }]);
  });

  it("lists the first 100 skipped lines and counts them all", async () => {
    const lines = [HEADER, ...Array.from({ length: 150 }, (_, i) => row(head(`MANY-${i}`, "tomorrow"), item()))];
    const job = await uploadAndRun(lines.join("\n"));
    expect(job.info.created).toBe(0);
    expect(job.info.skipped_total).toBe(150);
    expect(job.info.skipped).toHaveLength(100);
    expect(job.info.skipped[0].line).toBe(2);
    expect(job.info.skipped[99].line).toBe(101);
  });

  it("takes the same file once, and skips the same rows in another file", async () => {
    const text = [HEADER, row(head("ONCE-1"), item()), row(head("ONCE-2"), item("Carton", "2", "8"))].join("\n");
    const first = await uploadAndRun(text);
    expect(first.info.created).toBe(2);
    const again = await upload(despatcher, text);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, job_id: first.upload.job_id, bulk_upload_id: first.upload.bulk_upload_id });
    expect(await countByReference("ONCE-")).toBe(2);

    // the same consignments in another file: other column order, the other date format, another one besides
    const reordered = "reference,site_code,despatch_date,receiver_name,receiver_address_line_1,suburb,postcode,receiver_region,item_type,qty,length,width,height,weight";
    const other = [reordered, `ONCE-1,mel,${day("-")},Brisbane Hardware,5 Ipswich Road,WOOLLOONGABBA,4102,QLD,carton,1,40,30,20,5`, `ONCE-3,MEL,${day()},Brisbane Hardware,5 Ipswich Road,WOOLLOONGABBA,4102,QLD,Carton,1,40,30,20,5`].join("\n");
    const second = await uploadAndRun(other);
    expect(second.upload.duplicate).toBe(false);
    expect(second.info.created).toBe(1);
    expect(second.info.skipped).toEqual([{ line: 2, errors: [ALREADY_UPLOADED] }]);
    expect(await countByReference("ONCE-1")).toBe(1);
    expect(await countByReference("ONCE-3")).toBe(1);
    const [row1] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.id, second.upload.bulk_upload_id));
    expect(row1).toMatchObject({ created: 1, skipped: 1, totalLines: 2, kind: "consignment" });
  });

  it("a file of more than one batch is written batch after batch: a repeat in a later batch of a row in an earlier one is skipped", async () => {
    // batch 2 is checked while batch 1 is written; its write waits for batch 1's and so sees it
    const total = BATCH + 5;
    const refs = Array.from({ length: total }, (_, i) => (i === BATCH + 2 ? "SPAN-3" : `SPAN-${i}`));
    const text = [HEADER, ...refs.map((r) => row(head(r), item()))].join("\n");
    const job = await uploadAndRun(text);
    expect(job.info).toMatchObject({ total, created: total - 1, skipped_total: 1 });
    expect(job.info.skipped).toEqual([{ line: BATCH + 4, errors: [ALREADY_UPLOADED] }]);
    expect(await server.db.select().from(consignments).where(eq(consignments.reference, "SPAN-3"))).toHaveLength(1);
    expect(await countByReference("SPAN-")).toBe(total - 1);
    // the first 100 made, in the file's order
    const first = await made(job.info.consignment_ids);
    expect(first.map((c) => c.reference)).toEqual(refs.slice(0, 100));
  }, 120_000);

  it("a job run again (its worker died) counts what it made and makes nothing twice", async () => {
    const text = [HEADER, row(head("RERUN-1"), item()), row(head("RERUN-2"), item())].join("\n");
    const res = await upload(despatcher, text);
    const { name, data } = await support.queuedJob(world, res.body.job_id);
    const { runJob } = await import("../../queues/queue.server");
    await runJob(world.deps, name, data);
    // played again from the start, as the sweeper does with a job whose worker died after its
    // batches committed (the file is still there then: it goes only when a run finishes)
    const [stored] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.id, res.body.bulk_upload_id));
    expect(stored!.fileId).toBeNull();
    await storeUploadFile(server.db, stored!, text);
    await server.db.execute(sql`update jobs set status = 'queued' where id = ${res.body.job_id}`);
    await runJob(world.deps, name, data);
    const job = (await despatcher.json<Json>(`/api/job_status/${res.body.job_id}`)).body;
    expect(job.info).toMatchObject({ created: 2, skipped_total: 0 });
    expect(await countByReference("RERUN-")).toBe(2);
  });

  it("keeps the file in the file store (a row, not a disk) for its job, which reads it from there and removes it when done", async () => {
    const text = [HEADER, row(head("STORE-1"), item())].join("\n");
    const res = await upload(despatcher, text);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [up] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.id, res.body.bulk_upload_id));
    const [file] = await server.db.select().from(files).where(eq(files.id, up!.fileId!));
    expect(file).toMatchObject({ kind: "bulk_upload", customerId: up!.customerId, name: "upload.csv", size: Buffer.byteLength(text), sha256: up!.fingerprint });
    // it expires (the nightly cleanup removes one whose job never finished)
    expect(Math.abs(file!.expiresAt!.getTime() - file!.createdAt.getTime() - UPLOAD_KEEP_DAYS * 86_400_000)).toBeLessThan(60_000);
    expect((await readWholeFile(server.db, file as StoredFile)).toString("utf8")).toBe(text);
    expect((await support.workJob(world, res.body.job_id)).info.created).toBe(1);
    expect(await server.db.select().from(files).where(eq(files.id, file!.id))).toEqual([]);
    const [done] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.id, up!.id));
    expect(done!.fileId).toBeNull();
  });

  it("a job whose file is no longer in the store fails asking for it again; the same file uploaded again is stored again and runs", async () => {
    const text = [HEADER, row(head("GONE-1"), item())].join("\n");
    const res = await upload(despatcher, text);
    const [up] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.id, res.body.bulk_upload_id));
    // as on a host where the file never was: only the store holds it
    await server.db.delete(files).where(eq(files.id, up!.fileId!));
    const failed = await support.workJob(world, res.body.job_id);
    expect(failed).toMatchObject({ status: "failed", errors: [UPLOAD_GONE] });
    expect(await countByReference("GONE-")).toBe(0);
    const again = await upload(despatcher, text);
    expect(again.body).toMatchObject({ duplicate: true, bulk_upload_id: up!.id });
    expect(again.body.job_id).not.toBe(res.body.job_id);
    const [restored] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.id, up!.id));
    expect(restored!.fileId).toBeTruthy();
    expect((await support.workJob(world, again.body.job_id)).info.created).toBe(1);
    expect(await countByReference("GONE-")).toBe(1);
  });

  it("quotes need can_bulkquote and consignments can_bulkupload", async () => {
    const text = (ref: string) => [HEADER, row(head(ref), item())].join("\n");
    await setFlags("despatcher@example.com", { canBulkquote: true });
    try {
      const refused = await upload(despatcher, text("Q-NOPE"), "consignment");
      expect(refused.status).toBe(403);
      expect(refused.body.errors.base).toEqual(["You may not bulk upload consignments."]);
      const job = await uploadAndRun(text("Q-1"), "quote");
      expect(job.info.created).toBe(1);
      const [quote] = await made(job.info.consignment_ids);
      expect(quote).toMatchObject({ isQuote: true, state: "quote", reference: "Q-1" });
      // quotes take 1 or 2 digit quantities
      const big = await uploadAndRun([HEADER, row(head("Q-BIG"), item("Carton", "150"))].join("\n"), "quote");
      expect(big.info.skipped).toEqual([{ line: 2, errors: ["Quantity must be 1 or 2 digits"] }]);
    } finally {
      await setFlags("despatcher@example.com", { canBulkupload: true });
    }
    const refused = await upload(despatcher, text("Q-2"), "quote");
    expect(refused.status).toBe(403);
    expect(refused.body.errors.base).toEqual(["You may not bulk upload quotes."]);
    expect((await upload(despatcher, text("Q-3"), "parcel")).status).toBe(422);
  });

  it("refuses files that are not csv, too large, not text or with a wrong header, before any job", async () => {
    const form = new FormData();
    form.set("type", "consignment");
    form.set("file", new File(["a,b\n1,2\n"], "upload.txt", { type: "text/plain" }));
    const txt = await fetch(`${server.url}/api/bulk_upload/import`, { method: "POST", headers: { cookie: despatcher.cookie, Accept: "application/json" }, body: form });
    expect(txt.status).toBe(422);
    expect(((await txt.json()) as Json).errors.file).toEqual(["Only csv files can be imported."]);

    const big = await fetch(`${server.url}/api/bulk_upload/import?type=consignment`, { method: "POST", headers: { cookie: despatcher.cookie, "content-type": "text/csv", Accept: "application/json" }, body: "x".repeat(11 * 1024 * 1024) });
    expect(big.status).toBe(413);

    const binary = await upload(despatcher, "\u0001\u0002PNG");
    expect(binary.status).toBe(422);
    const missing = await upload(despatcher, "site_code,despatch_date\nMEL,01/01/2030\n");
    expect(missing.status).toBe(422);
    expect(missing.body.errors.file[0]).toMatch(/^Missing columns: receiver_name, receiver_locality, receiver_postcode, item_type, quantity, length, width, height, weight$/);
    const unknown = await upload(despatcher, `${HEADER},colour\n`);
    expect(unknown.body.errors.file).toEqual(["Unknown columns: colour"]);
    // multipart with a .csv file works as the screen sends it
    const good = new FormData();
    good.set("type", "consignment");
    good.set("file", new File([[HEADER, row(head("MULTIPART-1"), item())].join("\n")], "multi.csv", { type: "text/csv" }));
    const ok = await fetch(`${server.url}/api/bulk_upload/import`, { method: "POST", headers: { cookie: despatcher.cookie, Accept: "application/json" }, body: good });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as Json;
    expect((await support.workJob(world, body.job_id)).info.created).toBe(1);
    const [stored] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.id, body.bulk_upload_id));
    expect(stored!.fileName).toBe("multi.csv");
  });

  it("the screen shows the progress and then the result with the skipped lines", async () => {
    const form = new FormData();
    form.set("intent", "import");
    form.set("type", "consignment");
    form.set("file", new File([[HEADER, row(head("SCREEN-1"), item()), row(head("SCREEN-2", "bad"), item())].join("\n")], "screen.csv", { type: "text/csv" }));
    const posted = await fetch(`${server.url}/bulk_upload`, { method: "POST", headers: { cookie: despatcher.cookie }, body: form, redirect: "manual" });
    expect(posted.status).toBe(302);
    const to = posted.headers.get("location")!;
    expect(to).toMatch(/^\/bulk_upload\?upload=\d+$/);
    const before = await (await despatcher.request(to)).text();
    expect(before).toContain("Uploading screen.csv");
    expect(before).toContain("Refresh");
    const [uploadRow] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.id, Number(to.split("=")[1])));
    await support.workJob(world, uploadRow!.jobId!);
    const after = await (await despatcher.request(to)).text();
    expect(after).toContain("1 consignment created of 2 in the file; 1 line skipped.");
    expect(after).toContain("Upload Errors");
    expect(after).toContain("The following lines were skipped due to errors");
    expect(after).toContain('href="/consignments"');
    // another customer's upload id is not found
    expect((await world.clients.tester.request(to)).status).not.toBe(200);
  });
});

describe("bulk redespatch", () => {
  it("admins without the upload flags open the screen for its redespatch form alone; customer service is sent home", async () => {
    const page = await admin.request("/bulk_upload");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Bulk redespatch");
    expect(html).not.toContain('aria-label="Upload a file"');
    expect(html).not.toContain("/api/bulk_upload_template");
    const cs = await world.clients.customerService.request("/bulk_upload");
    expect(cs.status).toBe(302);
    expect(cs.headers.get("location")).toBe("/");
  });

  it("is for admins, super admins and devs; redespatches failed consignments by number and lists the others", async () => {
    const file = "consignment_number\nNOPE-1\n";
    const refused = await upload(despatcher, file, "consignment", "/api/bulk_upload/redespatch");
    expect(refused.status).toBe(403);
    expect((await upload(world.clients.customerService, file, "consignment", "/api/bulk_upload/redespatch")).status).toBe(403);

    await support.simulate(world, { fail_despatch: true });
    let failed: Json;
    try {
      failed = await support.createDespatchable(world, despatcher, "MEL", "SIMEX", "ONT");
      const fine = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
      const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [failed.id, fine.id] } });
      await support.workJob(world, res.body.job_id);
    } finally {
      await support.simulate(world, { fail_despatch: false });
    }
    const [failedRow] = await support.rowsOf(world, [failed.id]);
    expect(failedRow!.state).toBe("despatch_failure");
    const [fineRow] = await server.db.select().from(consignments).where(and(eq(consignments.reference, "REF-NORTHLINE"), eq(consignments.state, "despatched")));

    const text = `consignment_number\n${failedRow!.consignmentNumber}\nNOPE-1\n${fineRow!.consignmentNumber}\n`;
    for (const who of ["admin", "devs"] as const) {
      const client = world.clients[who];
      const res = await upload(client, text, "consignment", "/api/bulk_upload/redespatch");
      if (who === "devs") {
        // the first redespatch is under way: nothing failed is left to send
        expect(res.status).toBe(200);
        expect(res.body.job_id).toBeNull();
        expect(res.body.skipped.find((s: Json) => s.line === 2).errors[0]).toMatch(/whose despatch failed/);
        continue;
      }
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.redespatched).toBe(1);
      expect(res.body.skipped).toEqual([
        { line: 3, errors: ["Consignment NOPE-1 not found"] },
        { line: 4, errors: [expect.stringMatching(/^Only a consignment whose despatch failed can be redespatched/)] },
      ]);
      expect((await support.rowsOf(world, [failed.id]))[0]!.state).toBe("despatching");
      const job = await support.workJob(world, res.body.job_id, admin);
      expect(job.status).toBe("complete");
      expect((await support.rowsOf(world, [failed.id]))[0]!.state).toBe("despatched");
    }
  });
});
