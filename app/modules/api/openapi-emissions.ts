/** Emissions per consignment (issue 33 item 1, docs/decisions/041): the carrier factor calls and the field's schema. */
import { TRANSPORT_MODES } from "../../../db/schema/carriers";
import { AIR_UPLIFT_KM, DEFAULT_FACTORS, ROAD_CIRCUITY } from "../emissions/method";
import { errorResponses, idParam, ok } from "./openapi-parts";

const factor = { type: "object", required: ["g_per_tkm", "source"], properties: { g_per_tkm: { type: "number", minimum: 0, maximum: 100000 }, source: { type: "string", maxLength: 200 } } };

export const emissionsSchemas = {
  Emissions: {
    type: ["object", "null"],
    description: `Well-to-wheel kg CO2e (ISO 14083 / GLEC): tonnes (charge weight) × km × factor / 1000, km being the localities' great-circle distance × ${ROAD_CIRCUITY} by road and rail, + ${AIR_UPLIFT_KM} km by air. null when there is no figure; emissions_reason then says why (no coordinates for a locality, no weight, no service).`,
    required: ["kg_co2e", "tonne_km", "mode", "factor", "source"],
    properties: {
      kg_co2e: { type: "number" },
      tonne_km: { type: "number" },
      mode: { type: "string", enum: TRANSPORT_MODES },
      factor: { type: "number", description: "g CO2e per tonne-km, well-to-wheel" },
      source: { type: "string" },
      km: { type: "number" },
      tonnes: { type: "number" },
    },
  },
} as const;

export const emissionsPaths = {
  "/api/carriers/{id}/emission_factors": {
    get: {
      summary: `The emission intensity in force per mode (g CO2e per tonne-km, well-to-wheel): the carrier's own, or the default (road ${DEFAULT_FACTORS.road.g_per_tkm}, air ${DEFAULT_FACTORS.air.g_per_tkm}, rail ${DEFAULT_FACTORS.rail.g_per_tkm}). Staff who keep carriers; others 403`,
      parameters: [idParam("id")],
      responses: ok("{ carrier_id, factors: { road|air|rail: { g_per_tkm, source, own, default_g_per_tkm } } }"),
    },
    put: {
      summary: "Sets (an object) or returns to the default (null) each mode given; modes left out keep theirs. Queues the recomputation of the carrier's consignments: 202 { carrier_id, factors, job_id }. 400 per field; an unknown mode is 400. Staff who keep carriers; others 403",
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", additionalProperties: false, properties: Object.fromEntries(TRANSPORT_MODES.map((m) => [m, { oneOf: [factor, { type: "null" }] }])) } } } },
      responses: { "202": { description: "Saved; the recomputation job queued", content: { "application/json": {} } }, ...errorResponses },
    },
  },
} as const;
