/**
 * The receiver's page at /track/{token}, written as HTML by hand rather than through React: it
 * has nothing to hydrate, anyone may open it as often as they like, and a React render costs ten
 * times the work of the page itself (docs/performance.md, "Track and trace"). No script; styles
 * inline (the CSP allows inline styles, not scripts). Every text from a carrier is escaped.
 */
import { escapeHtml as e } from "../../utils/html";
import { formatKgCo2e } from "../emissions/method";
import { LINK_NOT_FOUND, NO_EVENTS, safeHref } from "./public-link";
import type { PublicTrackingJson } from "./public-link.server";

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;background:#f8fafc;color:#0f172a;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.4}
  main{max-width:42rem;margin:0 auto;padding:1rem}
  .brand{display:flex;align-items:center;gap:.5rem;color:#075985;font-size:1.25rem;font-weight:600;margin:0 0 1rem}
  .brand img{width:1.75rem;height:1.75rem}
  .card{background:#fff;border:1px solid #e2e8f0;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
  h1{font-size:1.25rem;margin:0 0 .25rem}
  h2{font-size:1rem;margin:0 0 .5rem}
  .muted{color:#475569;font-size:.875rem;margin:0}
  dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.75rem 0 0;font-size:.875rem}
  dt{color:#64748b}
  dd{margin:0}
  ol{list-style:none;margin:0;padding:0}
  li{border-left:2px solid #0284c7;padding:0 0 0 .75rem;margin:0 0 .5rem;font-size:.875rem}
  li p{margin:0}
  .status{font-weight:600}
  .when{color:#64748b;font-size:.75rem;font-variant-numeric:tabular-nums}
  .btn{display:inline-block;margin-top:.75rem;padding:.375rem .75rem;border-radius:.25rem;background:#0369a1;color:#fff;text-decoration:none;font-size:.875rem}
  a:focus-visible{outline:2px solid #2563eb;outline-offset:2px}
  .alert{border:1px solid #fcd34d;background:#fffbeb;color:#78350f;border-radius:.25rem;padding:.5rem .75rem;font-size:.875rem}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand"><img src="/favicon.svg" alt="">FreightDesk</p>
${body}
</main>
</body>
</html>
`;
}

export function publicTrackingPage(t: PublicTrackingJson): string {
  const pod = safeHref(t.pod_url);
  const events = t.events.length
    ? `<ol data-testid="public-events">${t.events
        .map((ev) => `<li><p class="status">${e(ev.status)}</p>${ev.message ? `<p>${e(ev.message)}</p>` : ""}<p class="when">${e(ev.at)}</p></li>`)
        .join("")}</ol>`
    : `<p class="muted">${e(NO_EVENTS)}</p>`;
  const body = `<section class="card" aria-labelledby="state">
<h1 id="state" data-testid="public-state">${e(t.state)}</h1>
<p class="muted">Consignment <strong data-testid="public-number">${e(t.consignment_number ?? "Pending")}</strong>${t.carrier_name ? ` with ${e(t.carrier_name)}` : ""}</p>
<dl>
<dt>From</dt><dd>${e(t.from || "—")}</dd>
<dt>To</dt><dd>${e(t.to || "—")}</dd>
${t.delivered ? "" : `<dt>Estimated delivery</dt><dd data-testid="public-eta">${e(t.estimated_delivery_date ?? "Not known yet")}</dd>`}
<dt>Emissions</dt><dd data-testid="public-emissions">${t.emissions ? `${e(formatKgCo2e(t.emissions.kg_co2e))} kg CO2e (${e(t.emissions.mode)}, well-to-wheel)` : e(t.emissions_reason ?? "Not known")}</dd>
</dl>
${pod ? `<a class="btn" href="${e(pod)}" target="_blank" rel="noreferrer">Proof of delivery</a>` : ""}
</section>
<section class="card" aria-labelledby="journey">
<h2 id="journey">Journey</h2>
${events}
</section>`;
  return layout(`Consignment ${t.consignment_number ?? ""}: ${t.state}`, body);
}

export function linkNotValidPage(message = LINK_NOT_FOUND): string {
  return layout("Tracking", `<p role="alert" class="alert">${e(message)}</p>`);
}
