import { describe, expect, it } from "vitest";
import { linkNotValidPage, publicTrackingPage } from "./public-page.server";
import type { PublicTrackingJson } from "./public-link.server";

const tracking = (over: Partial<PublicTrackingJson> = {}): PublicTrackingJson => ({
  consignment_number: "SXMEL3000001",
  carrier_name: "Simulated Express",
  state: "In transit",
  estimated_delivery_date: "06/05/2026",
  from: "Melbourne DC, VIC",
  to: "WOOLLOONGABBA QLD 4102",
  delivered: false,
  events: [{ at: "04/05/2026 23:30", status: "In transit", message: "Arrived at ALBURY depot" }],
  pod_url: null,
  emissions: { kg_co2e: 42.806, mode: "road" },
  emissions_reason: null,
  ...over,
});

describe("the public tracking page's HTML", () => {
  it("escapes whatever a carrier wrote, in text and in attributes", () => {
    const html = publicTrackingPage(tracking({ events: [{ at: "x", status: "In transit", message: `<script>alert(1)</script><img src=x onerror="alert(2)">` }], carrier_name: `A&B "Freight"` }));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("A&amp;B &quot;Freight&quot;");
  });

  it("links a proof of delivery only over http(s) or to this site, never a script", () => {
    expect(publicTrackingPage(tracking({ pod_url: "javascript:alert(1)" }))).not.toContain("Proof of delivery");
    expect(publicTrackingPage(tracking({ pod_url: "//evil.example/pod" }))).not.toContain("Proof of delivery");
    expect(publicTrackingPage(tracking({ pod_url: "https://carrier.example/pod/1" }))).toContain('href="https://carrier.example/pod/1"');
    expect(publicTrackingPage(tracking({ pod_url: "/track/abc/pod" }))).toContain('href="/track/abc/pod"');
  });

  it("shows the estimated delivery date until delivered, and says when there are no events", () => {
    expect(publicTrackingPage(tracking())).toContain("06/05/2026");
    expect(publicTrackingPage(tracking({ delivered: true, state: "Delivered" }))).not.toContain("Estimated delivery");
    expect(publicTrackingPage(tracking({ events: [] }))).toContain("There are currently no track and trace events for this consignment.");
  });

  it("shows the consignment's kg CO2e, or why there is none", () => {
    expect(publicTrackingPage(tracking())).toContain("42.8 kg CO2e (road, well-to-wheel)");
    const none = publicTrackingPage(tracking({ emissions: null, emissions_reason: "The receiver's locality has no coordinates" }));
    expect(none).toContain("The receiver&#39;s locality has no coordinates");
    expect(none).not.toContain("kg CO2e");
  });

  it("a link that is not valid says so, and runs no script", () => {
    const html = linkNotValidPage();
    expect(html).toContain("This tracking link is not valid.");
    expect(html).not.toContain("<script");
  });
});
