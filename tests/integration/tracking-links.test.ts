import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addresses, carriers, consignments, trackingGuessCounts } from "../../db/schema";
import { TRACKING_GUESSES, TRACKING_TOO_MANY } from "../../server/tracking-limits";
import { Client, serveApp, type TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";
import { withAppEnv } from "../support/app-env";

/**
 * The track and trace screen, the Carrier Website call and the public tracking link (issue 14
 * items 3 and 5), through the real server: what each may see, and what a link holder may not.
 */
let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let despatcher: Client;
let tester: Client;

async function despatched(): Promise<{ id: number; number: string }> {
  const c = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN", { reference: "SECRET-PO-4471" });
  const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
  expect((await support.workJob(world, res.body.job_id)).status).toBe("complete");
  const [row] = await support.rowsOf(world, [c.id]);
  return { id: c.id, number: row!.consignmentNumber! };
}

const page = async (client: Client, path: string) => {
  const res = await client.request(path);
  return { status: res.status, html: (await res.text()).replaceAll("<!-- -->", ""), res };
};

/** The link's path (the host is whatever the request reached). */
const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ admin, despatcher, tester } = world.clients);
}, 120_000);
afterAll(() => server.close());

describe("the track and trace screen, /tracking/{id}", () => {
  it("lists the events newest first with the site's dates, the buttons, and says so when there are none", async () => {
    const c = await despatched();
    const empty = await page(despatcher, `/tracking/${c.id}`);
    expect(empty.status).toBe(200);
    expect(empty.html).toContain("There are currently no track and trace events for this consignment.");

    const events = [
      { consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:10:00+10:00", carrier_event: "PCK", message: "Picked up from Melbourne DC" },
      { consignment_number: c.number, event: "delivered", event_time: "2026-05-05T14:05:00+10:00", carrier_event: "DEL", message: "Delivered to Brisbane Hardware", pod_url: "https://carrier.example/pod/1", images: ["https://carrier.example/img/1.jpg"] },
    ];
    expect((await admin.json<Json>("/api/tracking_events", { json: { events } })).status).toBe(200);
    const { html } = await page(despatcher, `/tracking/${c.id}`);
    expect(html).toContain(`Track and trace ${c.number}`);
    // newest first; Melbourne's date format and clock (the site's zone, +10:00 in May)
    const delivered = html.indexOf("Delivered to Brisbane Hardware");
    const picked = html.indexOf("Picked up from Melbourne DC");
    expect(delivered).toBeGreaterThan(0);
    expect(picked).toBeGreaterThan(delivered);
    expect(html).toContain("05/05/2026 14:05");
    expect(html).toContain("04/05/2026 09:10");
    expect(html).toMatch(/href="https:\/\/carrier\.example\/pod\/1"[^>]*>POD</);
    expect(html).toMatch(/href="https:\/\/carrier\.example\/img\/1\.jpg"[^>]*>Image 1</);
    // Northline's website with the number
    const [northline] = await server.db.select({ webUrl: carriers.webUrl }).from(carriers).where(eq(carriers.code, "NORTHLINE"));
    if (northline!.webUrl) expect(html).toContain(">Carrier Website<");
    expect(html).toContain(">Tracking URL<");
  });

  it("is another customer's 404, never its events; the old /consignment/{id}/tracking leads here", async () => {
    const c = await despatched();
    expect((await page(tester, `/tracking/${c.id}`)).status).toBe(404);
    expect((await tester.json(`/api/track_trace/${c.id}`)).status).toBe(404);
    expect((await page(despatcher, "/tracking/2147483648")).status).toBe(404);
    const old = await despatcher.request(`/consignment/${c.id}/tracking`);
    expect(old.status).toBe(302);
    expect(old.headers.get("location")).toBe(`/tracking/${c.id}`);
  });
});

describe("the journey map on the screen", () => {
  it("shows in QA for everyone and, in production, for developer users only; an event's map link centres it", async () => {
    const c = await despatched();
    const posted = await admin.json<Json>("/api/tracking_events", {
      json: { events: [{ consignment_number: c.number, event: "in_transit", event_time: "2026-05-04T23:30:00+10:00", message: "Arrived at ALBURY depot", latitude: -36.08, longitude: 146.91 }] },
    });
    expect(posted.status).toBe(200);
    const qa = await page(despatcher, `/tracking/${c.id}`);
    expect(qa.html).toContain('data-testid="journey-map-vector"');
    expect(qa.html).toMatch(/href="\/tracking\/\d+\?event=\d+#map"/);
    const eventId = Number(qa.html.match(/\?event=(\d+)#map/)![1]);
    const focused = await page(despatcher, `/tracking/${c.id}?event=${eventId}`);
    expect(focused.html).toContain('data-testid="map-focus"');
    expect(qa.html).not.toContain('data-testid="map-focus"');

    await withAppEnv("production", async () => {
      const live = await page(despatcher, `/tracking/${c.id}`);
      expect(live.status).toBe(200);
      expect(live.html).not.toContain('data-testid="journey-map');
      expect(live.html).not.toContain("#map");
      expect((await page(world.clients.devs, `/tracking/${c.id}`)).html).toContain('data-testid="journey-map-vector"');
    });
  });
});

describe("GET /api/external_tracking/{consignment_id}", () => {
  it("answers the carrier's page with the consignment number, 404 without a website or for another customer", async () => {
    const c = await despatched();
    await server.db.update(carriers).set({ webUrl: "https://www.northline.com.au/track" }).where(eq(carriers.code, "NORTHLINE"));
    const res = await despatcher.json<Json>(`/api/external_tracking/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(`https://www.northline.com.au/track?id=${c.number}`);
    expect((await tester.json<Json>(`/api/external_tracking/${c.id}`)).status).toBe(404);
    await server.db.update(carriers).set({ webUrl: null }).where(eq(carriers.code, "NORTHLINE"));
    const none = await despatcher.json<Json>(`/api/external_tracking/${c.id}`);
    expect(none.status).toBe(404);
    expect(none.body.errors.base).toEqual(["The carrier of this consignment has no tracking website."]);
  });
});

describe("the public tracking link", () => {
  it("opens signed out with the state, the events and the POD, and nothing a receiver should not see", async () => {
    const c = await despatched();
    const [row] = await support.rowsOf(world, [c.id]);
    await server.db.update(consignments).set({ estimatedDeliveryDate: "2026-05-06" }).where(eq(consignments.id, c.id));
    const link = await despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`);
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/track\/[0-9a-f-]{36}$/);
    // reading it again changes nothing
    expect((await despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`)).body.url).toBe(link.body.url);

    await admin.json("/api/tracking_events", {
      json: { events: [{ consignment_number: c.number, event: "in_transit", event_time: "2026-05-04T23:30:00+10:00", message: "Arrived at ALBURY depot", latitude: -36.08, longitude: 146.91 }] },
    });
    const anyone = new Client(server.url);
    const open = await page(anyone, pathOf(link.body.url));
    expect(open.status).toBe(200);
    // the link's token never travels to the pages it links to (of several values, the last one counts)
    expect(open.res.headers.get("referrer-policy")).toMatch(/(^|, )no-referrer$/);
    expect(open.html).toContain("In transit");
    expect(open.html).toContain("Arrived at ALBURY depot");
    expect(open.html).toContain(c.number);
    expect(open.html).toContain("06/05/2026");
    expect(open.html).toContain("WOOLLOONGABBA QLD 4102");
    // the data boundary: no price, no reference, no internal id, no street address, no e-mail
    for (const secret of ["SECRET-PO-4471", row!.serviceRate ?? "SECRET-PO-4471", "5 Ipswich Road", "receiving@example.net", `"id":${c.id}`, `/consignment/${c.id}`, "rating_detail", "Brisbane Hardware"]) {
      expect(open.html, secret).not.toContain(secret);
    }
    // the sender: its name and state, never its suburb, postcode or street (docs/decisions/025-attack-run-ii.md)
    const [sender] = await server.db.select().from(addresses).where(eq(addresses.id, row!.senderAddressId!));
    expect(open.html).toContain(`${sender!.name}, ${sender!.region}`);
    for (const secret of [sender!.locality!, sender!.postcode!, sender!.addressLine1!]) expect(open.html, secret).not.toContain(secret);
  });

  it("limits tokens that open nothing per address; a receiver opening the real link is never counted (issue 35 finding 10)", async () => {
    const c = await despatched();
    const link = pathOf((await despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`)).body.url);
    const fresh = await serveApp(server.services);
    try {
      const anyone = new Client(fresh.url);
      for (let i = 0; i < 3 * TRACKING_GUESSES; i++) expect((await anyone.request(link)).status).toBe(200);
      // the real link is read against the count, never written to it (issue 32: a view costs no commit)
      expect(await server.db.select().from(trackingGuessCounts)).toEqual([]);
      // a client's own guess key is dropped, so it cannot spend another address's allowance
      expect((await anyone.request(`/track/${crypto.randomUUID()}`, { headers: { "x-tracking-guess-key": "203.0.113.9" } })).status).toBe(404);
      expect((await server.db.select({ key: trackingGuessCounts.key }).from(trackingGuessCounts)).map((r) => r.key)).not.toContain("203.0.113.9");
      await server.db.delete(trackingGuessCounts);
      // guesses in several spellings the router takes count alike
      const guess = (i: number) => [`/track/${crypto.randomUUID()}`, `/TRACK/${crypto.randomUUID()}`, `/%74rack/${crypto.randomUUID()}/pod`][i % 3]!;
      for (let i = 0; i < TRACKING_GUESSES; i++) expect((await anyone.request(guess(i))).status, guess(i)).toBe(404);
      const limited = await anyone.request(guess(0));
      expect(limited.status).toBe(429);
      expect(await limited.text()).toContain(TRACKING_TOO_MANY);
      expect((await anyone.request(link)).status).toBe(429);
    } finally {
      await fresh.close();
      // the count is the database's (every process's): the tests after this one start clean
      await server.db.delete(trackingGuessCounts);
    }
  });

  it("counts guesses in the database, so two web processes over one database share one allowance (issue 35 finding 10)", async () => {
    const [a, b] = [await serveApp(server.services), await serveApp(server.services)];
    try {
      const [onA, onB] = [new Client(a.url), new Client(b.url)];
      const guess = () => `/track/${crypto.randomUUID()}`;
      // half the allowance on each: neither process alone has seen enough to refuse
      for (let i = 0; i < TRACKING_GUESSES; i++) expect((await (i % 2 ? onB : onA).request(guess())).status).toBe(404);
      const [count] = await server.db.select().from(trackingGuessCounts);
      expect(count!.hits).toBe(TRACKING_GUESSES);
      for (const client of [onA, onB]) {
        const limited = await client.request(guess());
        expect(limited.status).toBe(429);
        expect(await limited.text()).toContain(TRACKING_TOO_MANY);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
      await server.db.delete(trackingGuessCounts);
    }
  });

  it("a drawn POD is served through the link; a new link revokes the old one", async () => {
    const c = await despatched();
    const first = (await despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`)).body.url as string;
    // the product draws a POD for an event whose pod_url is its own (the simulated carrier's)
    await admin.json("/api/tracking_events", { json: { events: [{ consignment_number: c.number, event: "delivered_with_pod", event_time: "2026-05-05T14:05:00+10:00" }] } });
    await server.db.execute(sql`update tracking_events set pod_url = '/api/pod/' || id where consignment_id = ${c.id}`);
    const anyone = new Client(server.url);
    const pageHtml = (await page(anyone, pathOf(first))).html;
    expect(pageHtml).toContain(`href="${pathOf(first)}/pod"`);
    const pod = await anyone.request(`${pathOf(first)}/pod`);
    expect(pod.status).toBe(200);
    expect(pod.headers.get("content-type")).toContain("image/svg+xml");
    expect(await pod.text()).toContain(c.number);

    const replaced = await despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`, { method: "POST" });
    expect(replaced.status).toBe(200);
    expect(replaced.body.url).not.toBe(first);
    const gone = await page(anyone, pathOf(first));
    expect(gone.status).toBe(404);
    expect(gone.html).toContain("This tracking link is not valid.");
    expect((await anyone.request(`${pathOf(first)}/pod`)).status).toBe(404);
    expect((await page(anyone, pathOf(replaced.body.url))).status).toBe(200);
  });

  it("is offered only once the consignment is complete, only to users who may see it, and cannot be forged", async () => {
    const open = await despatcher.json<Json>("/api/consignments", { json: { site_code: "MEL", reference: "NOT-YET", despatch_date: support.futureDate(), items: [] } });
    expect(open.status).toBe(201);
    expect(open.body.state).toBe("open");
    const refused = await despatcher.json<Json>(`/api/create_tracktrace_url/${open.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual(["A tracking URL is offered once the consignment is complete."]);
    expect((await despatcher.json<Json>(`/api/create_tracktrace_url/${open.body.id}`, { method: "POST" })).status).toBe(409);

    const c = await despatched();
    expect((await tester.json<Json>(`/api/create_tracktrace_url/${c.id}`)).status).toBe(404);
    expect((await tester.json<Json>(`/api/create_tracktrace_url/${c.id}`, { method: "POST" })).status).toBe(404);
    const anyone = new Client(server.url);
    // a made-up token, one that is no UUID, and an id in its place all read the same
    for (const token of ["00000000-0000-4000-8000-000000000000", "not-a-token", String(c.id)]) {
      const res = await page(anyone, `/track/${token}`);
      expect(res.status, token).toBe(404);
      expect(res.html).toContain("This tracking link is not valid.");
    }

    // deleted: the link stops working
    const link = (await despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`)).body.url as string;
    await server.db.update(consignments).set({ active: false, state: "deleted" }).where(eq(consignments.id, c.id));
    expect((await page(anyone, pathOf(link))).status).toBe(404);
  });

  it("the screen's Tracking URL modal works without JavaScript: ?link=1 shows the link, New link posts and shows the new one", async () => {
    const c = await despatched();
    const before = (await despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`)).body.url as string;
    const shown = await page(despatcher, `/tracking/${c.id}?link=1`);
    expect(shown.html).toContain(`value="${before}"`);
    expect(shown.html).toMatch(/<dialog[^>]*open=""/);
    const posted = await despatcher.request(`/tracking/${c.id}?link=1`, { form: { intent: "replace_link" }, headers: { "X-Requested-With": "" } });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(`/tracking/${c.id}?link=1`);
    const after = (await despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`)).body.url as string;
    expect(after).not.toBe(before);
    expect((await page(despatcher, `/tracking/${c.id}?link=1`)).html).toContain(`value="${after}"`);
  });
});
