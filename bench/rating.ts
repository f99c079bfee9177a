/**
 * The rating rows of docs/performance.md (issue 3): the engine and the rating service in process,
 * the rate shop and the locality search over HTTP (callers in a separate process), and the floor.
 */
import { rate, type RatingInput, type ServiceOption } from "../app/modules/rating/engine";
import { rateConsignment } from "../app/modules/rating/rating.server";
import { searchLocalities } from "../app/modules/localities/localities.server";
import { todayIn } from "../app/modules/calendar/site-time";
import { MEL_TO_BNE } from "../tests/support/rating";
import { inProcess, loadFrom, medianOfThree, tableRows, type Stats, TABLE_HEAD } from "./measure";
import type { Bench } from "./setup";

export interface RatingRun {
  rows: Array<[string, Stats]>;
  /** p95s of the three 20-caller runs, the row being their median */
  rateShopRuns: Stats[];
  /** what each rate shop posts */
  ratingPayload: Record<string, unknown>;
}

export async function benchRating({ server, client, headers, despatcher }: Bench): Promise<RatingRun> {
  const ratingPayload = {
    // tomorrow: a despatch date may not be in the past
    despatch_date: todayIn("Australia/Melbourne", new Date(Date.now() + 86_400_000)),
    ...MEL_TO_BNE,
    items: [
      { quantity: 2, length: 40, width: 30, height: 30, weight_in_uom: 12 },
      { quantity: 1, length: 120, width: 100, height: 110, weight_in_uom: 240, dangerous_goods: true },
      { quantity: 5, length: 35, width: 25, height: 5, weight_in_uom: 5 },
    ],
  };
  const check = await client.json<{ carriers: unknown[] }>("/api/carrier_selection", { json: ratingPayload });
  if (check.status !== 200 || check.body.carriers.length !== 10) throw new Error(`rate shop answered ${check.status} with ${check.body.carriers?.length} rates`);

  // the engine alone: 10 services, 3 item lines, surcharges and levies
  const engineInput: RatingInput = {
    despatchDate: "2026-11-24",
    som: "metric",
    senderCountry: "AUSTRALIA",
    siteCode: "MEL",
    items: ratingPayload.items.map((i) => ({ ...i, weight: i.weight_in_uom, dangerousGoods: Boolean(i.dangerous_goods), manualHandling: false })),
    receiverRemoteTier: 2,
    receiverResidential: false,
    isReturn: false,
    warranty: false,
    services: Array.from({ length: 10 }, (_, n): ServiceOption => ({
      siteServiceId: n,
      carrierCode: n % 2 ? "NORTHLINE" : "SIMEX",
      carrierName: "Carrier",
      serviceCode: `S${n}`,
      serviceName: `Service ${n}`,
      serviceType: "road",
      rateCode: "STD",
      markup: 15,
      surchargesMarkup: 10,
      fromZone: "V1",
      toZone: "Q1",
      lane: { rateCode: "STD", fromZone: "V1", toZone: "Q1", basic: 10 + n, perKg: 0.5, perItem: 1, minimum: 15, transitDays: 2, cubicFactor: 250, som: "metric", effectiveFrom: "2026-01-01" },
      fuelPercentage: 12,
      hideRates: false,
      timeslots: { pickup: false, deliver_by: false, deliver_at: false },
    })),
    surchargeSets: [
      {
        code: "S",
        carrierCode: "NORTHLINE",
        serviceCodes: [],
        siteCodes: [],
        dgSurcharge: { surcharge: 35, is_percentage: false, add_fuel_levy: true },
        oversizedSurcharges: [{ level: 1, from_m: 1.2, surcharge: 20, is_percentage: false }],
        remoteSurcharges: [{ tier: 2, surcharge: 12, is_percentage: false }],
      },
    ],
    estimateDelivery: (d) => d,
  };
  await inProcess(2000, () => rate(engineInput)); // warm up

  const queries = ["mel", "syd", "bris", "dand", "para", "300", "2000", "41", "wood", "port"];
  const usQueries = ["los", "new", "900", "100", "spring"];
  const nzQueries = ["auck", "wel", "chr", "101", "pon"];
  const localityQuery = (i: number) => {
    const pick = i % 5;
    if (pick === 3) return { query: usQueries[i % usQueries.length]!, country: "UNITED STATES OF AMERICA" as const };
    if (pick === 4) return { query: nzQueries[i % nzQueries.length]!, country: "NEW ZEALAND" as const };
    return { query: queries[i % queries.length]!, country: "AUSTRALIA" as const };
  };

  const localityUrls = Array.from({ length: 100 }, (_, i) => localityQuery(i)).map(
    (q) => `${server.url}/api/address_selection/search_locality?query=${encodeURIComponent(q.query)}&country=${encodeURIComponent(q.country)}`,
  );
  const localitySearches = (total: number, concurrency: number) => loadFrom({ urls: localityUrls, headers: { ...headers, "accept-encoding": "identity" }, total, concurrency });
  const rateShops = (total: number, concurrency: number) =>
    loadFrom({ url: `${server.url}/api/carrier_selection`, method: "POST", headers: { ...headers, "content-type": "application/json", "accept-encoding": "identity" }, body: JSON.stringify(ratingPayload), total, concurrency });
  // A server just started runs unoptimised code until V8 has seen it often: measured here, the
  // rate climbs for about the first 3,000 rate shops. The first 1,000 are reported as such; the
  // other rows are the steady state of a running server, after 4,000 more.
  const cold = await rateShops(1000, 20);
  await rateShops(4000, 20);
  // this machine's speed drifts by a third within minutes (it shares its host): three runs, and
  // the one with the median p95 is the row; all three p95s are in the text
  const { median: rateShopMedian, runs: rateShopRuns } = await medianOfThree(() => rateShops(2000, 20));
  const rating: Array<[string, Stats]> = [
    ["rate shop in process (engine only): 10 services, 3 lines", await inProcess(20_000, () => rate(engineInput))],
    ["rate shop in process (service: reads + engine): 10 services, 3 lines", await inProcess(300, () => rateConsignment(server.db, despatcher, ratingPayload))],
    [
      "POST /api/carrier_selection over HTTP, 20 callers (separate process): the median of three runs",
      rateShopMedian,
    ],
    ["locality search in process (full AU, US, NZ data), 1,000 queries", await inProcess(1000, (i) => searchLocalities(server.db, localityQuery(i)))],
    [
      "GET /api/address_selection/search_locality over HTTP, 20 callers (separate process)",
      await localitySearches(1000, 20),
    ],
    [
      "GET /api/address_selection/search_locality over HTTP, 1 caller (separate process): one request's own time",
      await localitySearches(500, 1),
    ],
    [
      "POST /api/carrier_selection over HTTP, 1 caller (separate process): one request's own time",
      await rateShops(300, 1),
    ],
    [
      "POST /api/carrier_selection over HTTP, 10 callers (separate process)",
      await rateShops(1000, 10),
    ],
    ["POST /api/carrier_selection over HTTP, 20 callers (separate process), the first 1,000 calls after start", cold],
    [
      "floor: GET /api/carrier_selection, answered 405 at once (Express and Remix, no work), 20 callers (separate process)",
      await loadFrom({ url: `${server.url}/api/carrier_selection`, headers: { "accept-encoding": "identity" }, total: 2000, concurrency: 20, expect: [405, 405] }),
    ],
  ];
  return { rows: rating, rateShopRuns, ratingPayload };
}

/** The Rating section: its table, the targets met or not, and what the figures mean. */
export function ratingSection({ rows: rating, rateShopRuns }: RatingRun): string[] {
  return [
    "## Rating",
    "",
    "Demo data: 18,519 Australian, 42,555 US and 126 NZ localities; 52,042 zone rows; about 6,300 rate lanes.",
    "Targets (issue 3): engine under 1 ms a rate shop at the median; HTTP p95 under 30 ms; locality search p95 under 10 ms.",
    "",
    ...TABLE_HEAD,
    ...tableRows(rating, 3),
    "",
    "Against the targets of this run:",
    "",
    ...[
      ["engine rate shop median under 1 ms", rating[0]![1].p50 < 1, `${rating[0]![1].p50.toFixed(3)} ms`],
      ["HTTP rate shop p95 under 30 ms (20 callers)", rating[2]![1].p95 < 30, `${rating[2]![1].p95.toFixed(1)} ms (the three runs: ${rateShopRuns.map((r) => r.p95.toFixed(1)).join(", ")} ms)`],
      ["locality search p95 under 10 ms", rating[3]![1].p95 < 10 && rating[5]![1].p95 < 10, `${rating[3]![1].p95.toFixed(2)} ms in process, ${rating[5]![1].p95.toFixed(2)} ms over HTTP for one caller`],
    ].map(([what, met, value]) => `- ${what}: ${value}, ${met ? "met" : "NOT met"}`),
    "",
    "A rate shop reads the rating reference data through a cache (app/modules/rating/rating-data.server.ts)",
    "that costs one query while nothing changed: triggers stamp every change to localities, zones, lanes,",
    "levies, surcharge sets, carriers, services, site services and account options (migration 0009).",
    "Each request also pays the session and user load (one prepared statement), zod, the engine and the",
    "JSON answer with every rate's breakdown. With 20 callers queued on one Node process, the median is",
    "roughly 20 / (calls per second) and p95 up to twice that. The floor row is the same route refused at once: what Express and Remix",
    "alone cost at 20 callers on this machine, before any work, so a p95 of 30 ms with 20 callers leaves",
    "the rate shop itself only the difference.",
    "",
    "Where a rate shop's server time goes (a CPU profile of build/server.js under 20 callers): writing the",
    "answer to the socket, serialising it as JSON, Remix's Request and Response, garbage collection, then the",
    "engine and the reads. The checks of issue 12 (body limits, origin, readBody's walk, date windows, the",
    "buy-cost redaction) come to a few per cent of it: the redaction copies only what it changes, and a site's",
    "today and the despatch date window are kept for a second, as every rate shop asks for them.",
    "",
    "A locality search is one indexed query (a prefix of the name, the sublocality or the postcode),",
    "but a short prefix such as 'new' or 'port' matches hundreds of places that are sorted (exact",
    "matches first) before the first six are taken: about half a millisecond a search (the in-process row).",
    "With 20 callers typing at once on this 2-core machine those queries queue behind each other;",
    "one caller's round trip is the 1-caller row.",
    "",
    "The rows after the first 5,000 rate shops are the steady state of a running server; the row of",
    "the first 1,000 calls after start shows the warm-up, while V8 has not yet optimised the code.",
    "",
    "",
  ];
}
