/** The carrier screen's emission factor fields: one number and one source per mode (pure, shared by the route and the form). */
import { TRANSPORT_MODES, type TransportMode } from "../../../db/schema/carriers";

export { TRANSPORT_MODES };

export const MODE_LABELS: Record<TransportMode, string> = { road: "Road", air: "Air", rail: "Rail" };
export const factorField = (mode: TransportMode, part: "g_per_tkm" | "source") => `${mode}.${part}`;

/** The typed fields as they were (to show again after an error) and the PUT body: a blank factor returns the mode to its default. */
export function factorsFromForm(form: FormData): { values: Record<string, string>; body: Record<TransportMode, { g_per_tkm: string; source: string } | null> } {
  const text = (k: string) => (typeof form.get(k) === "string" ? (form.get(k) as string) : "");
  const values: Record<string, string> = {};
  const body = {} as Record<TransportMode, { g_per_tkm: string; source: string } | null>;
  for (const m of TRANSPORT_MODES) {
    const g = text(factorField(m, "g_per_tkm"));
    const source = text(factorField(m, "source"));
    values[factorField(m, "g_per_tkm")] = g;
    values[factorField(m, "source")] = source;
    body[m] = g.trim() === "" ? null : { g_per_tkm: g.trim(), source };
  }
  return { values, body };
}
