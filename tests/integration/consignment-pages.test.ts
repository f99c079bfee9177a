import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

/**
 * Issue 13 part 4: the consignment screen's texts the spec names (despatch progress, an unknown
 * consignment) and where its Tracking and Enquiries buttons lead, as the server renders them.
 */
let world: DespatchWorld;
let despatcher: Client;
let tester: Client;

beforeAll(async () => {
  world = await support.startDespatchWorld();
  ({ despatcher, tester } = world.clients);
}, 120_000);
afterAll(() => world.server.close());

const page = async (client: Client, path: string) => {
  const res = await client.request(path);
  // without the markers React puts between adjacent text parts
  return { status: res.status, html: (await res.text()).replaceAll("<!-- -->", "") };
};

describe("despatch progress (spec 3: 'Despatching...', 'Despatched n of total Consignments')", () => {
  it("a queued despatch shows Despatching... and the count, not Please wait... and a percentage; its job status carries the total", async () => {
    const a = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    const b = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [a.id, b.id] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const status = await despatcher.json<Json>(`/api/job_status/${res.body.job_id}`);
    expect(status.body).toMatchObject({ status: "queued", total: 2 });

    for (const path of [`/consignment/${a.id}?job=${res.body.job_id}`, `/consignments?job=${res.body.job_id}`]) {
      const { html } = await page(despatcher, path);
      expect(html, path).toContain("Despatching...");
      expect(html, path).toContain("Despatched 0 of 2 Consignments");
      expect(html, path).not.toContain("Please wait...");
    }
    // once done, the closing message replaces it
    expect((await support.workJob(world, res.body.job_id)).message).toBe("Your consignments have been despatched.");
    const { html } = await page(despatcher, `/consignment/${a.id}?job=${res.body.job_id}`);
    expect(html).toContain("Your consignments have been despatched.");
    expect(html).not.toContain("Despatching...");
  }, 60_000);
});

describe("an unknown consignment", () => {
  it("shows the warning 'No consignment found' (404), also for another customer's consignment", async () => {
    const mine = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    for (const [client, path] of [
      [despatcher, "/consignment/99999"],
      [tester, `/consignment/${mine.id}`],
    ] as const) {
      const { status, html } = await page(client, path);
      expect(status, path).toBe(404);
      expect(html, path).toMatch(/data-alert-type="warning"[^>]*>No consignment found</);
    }
  });
});

describe("Tracking and Enquiries of a despatched consignment", () => {
  it("Tracking opens its track and trace screen; Enquiries the consignment's enquiries, with a way back", async () => {
    const c = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    expect((await support.workJob(world, res.body.job_id)).status).toBe("complete");
    const [row] = await support.rowsOf(world, [c.id]);

    const screen = (await page(despatcher, `/consignment/${c.id}`)).html;
    expect(screen).toMatch(new RegExp(`<a[^>]*href="/tracking/${c.id}"[^>]*>Tracking</a>`));
    expect((await page(despatcher, `/tracking/${c.id}`)).html).toContain(`Track and trace ${row!.consignmentNumber}`);
    expect(screen).toMatch(new RegExp(`<a[^>]*href="/consignment/${c.id}/enquiries"[^>]*>Enquiries</a>`));
    const { status, html } = await page(despatcher, `/consignment/${c.id}/enquiries`);
    expect(status).toBe(200);
    expect(html).toContain(`Enquiries of consignment ${row!.consignmentNumber}`);
    expect(html).toContain("There are no enquiries to display.");
    expect(html).not.toContain("coming in a later release");
    expect(html).toMatch(new RegExp(`href="/consignment/${c.id}"[^>]*>Back to the consignment<`));
  }, 60_000);

  it("are scoped: another customer's consignment, an unknown one or an unknown screen is not found", async () => {
    const c = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    expect((await page(tester, `/consignment/${c.id}/enquiries`)).status).toBe(404);
    expect((await page(tester, `/tracking/${c.id}`)).status).toBe(404);
    expect((await page(despatcher, "/consignment/99999/enquiries")).status).toBe(404);
    expect((await page(despatcher, `/consignment/${c.id}/other`)).status).toBe(404);
    expect((await page(despatcher, `/consignment/${c.id}/enquiries`)).status).toBe(200);
  });
});
