import { describe, expect, it } from "vitest";
import { podSvg } from "./pod";

const card = { carrierName: "Simulated Express", consignmentNumber: "SXMEL3000001", receiverName: "Brisbane Hardware", place: "WOOLLOONGABBA QLD", deliveredAt: "06/07/2026 14:00" };

describe("the drawn proof of delivery", () => {
  it("shows the receiver's name, the consignment and when, signed the same way each time", () => {
    const svg = podSvg(card);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("Delivered to Brisbane Hardware");
    expect(svg).toContain("Signed: Brisbane Hardware");
    expect(svg).toContain("Consignment SXMEL3000001");
    expect(svg).toContain("WOOLLOONGABBA QLD, 06/07/2026 14:00");
    expect(podSvg(card)).toBe(svg);
    expect(podSvg({ ...card, receiverName: "Perth Traders" })).not.toBe(svg.replaceAll("Brisbane Hardware", "Perth Traders"));
  });

  it("escapes what users typed, so a name cannot add markup", () => {
    const svg = podSvg({ ...card, receiverName: `<script>alert("x")</script> & Sons` });
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons");
  });
});
