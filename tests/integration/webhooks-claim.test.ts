/**
 * The webhook dispatcher's claim (issue 34, docs/decisions/039): every active endpoint gets its
 * share of a claim, however many older deliveries another endpoint has waiting, and none gets
 * more than its share; a paused endpoint and a busy one get none.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { claimDue } from "../../app/modules/webhooks/dispatcher.server";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let customerId: number;
beforeAll(async () => {
  server = await startTestServer();
  customerId = (await seedDemo(server.db)).acme.id;
});
afterAll(() => server.close());

const due = new Date("2026-01-01T00:00:00Z");

async function endpoint(name: string, active = true): Promise<number> {
  const [row] = await server.db
    .insert(webhookEndpoints)
    .values({ customerId, url: `https://${name}.example.com/hook`, events: ["tracking.updated"], secret: "whsec_test", active })
    .returning({ id: webhookEndpoints.id });
  return row!.id;
}

async function queue(endpointId: number, n: number): Promise<void> {
  await server.db.insert(webhookDeliveries).values(
    Array.from({ length: n }, () => ({ endpointId, customerId, eventId: randomUUID(), type: "tracking.updated", payload: {}, nextAttemptAt: due, createdAt: due })),
  );
}

const claimedOf = (claimed: { endpoint_id: number }[], id: number) => claimed.filter((c) => c.endpoint_id === id).length;

describe("a claim of due webhook deliveries", () => {
  it("gives every active endpoint its share, past another endpoint's backlog of older deliveries", async () => {
    const backlog = await endpoint("backlog");
    await queue(backlog, 40);
    const later = await endpoint("later");
    await queue(later, 3);
    const paused = await endpoint("paused", false);
    await queue(paused, 3);
    const busy = await endpoint("busy");
    await queue(busy, 3);

    // four slots in all would once have read the 16 oldest candidates: all the backlog's
    const claimed = await claimDue(server.db, { now: new Date(), limit: 4, perEndpoint: 2, busy: [busy] });
    expect(claimedOf(claimed, backlog)).toBe(2);
    expect(claimedOf(claimed, later)).toBe(2);
    expect(claimedOf(claimed, paused)).toBe(0);
    expect(claimedOf(claimed, busy)).toBe(0);
    // the oldest of each endpoint, and marked as being sent
    const laterRows = await server.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, later)).orderBy(webhookDeliveries.id);
    expect(laterRows.map((r) => r.state)).toEqual(["sending", "sending", "pending"]);
  });
});
