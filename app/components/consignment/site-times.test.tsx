import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangesTable } from "./InfoDialog";
import { LastDespatch } from "./DespatchDialogs";

/**
 * Times a person reads on the consignment screen follow the consignment's site: its zone and its
 * country's date format, whatever zone the server or the browser runs in (the same text on both
 * sides, so no hydration mismatch).
 */
describe("times in the site's zone and format", () => {
  const zone = process.env.TZ;
  // a process zone that is neither site's: a rendering that used it would show London's time
  beforeAll(() => {
    process.env.TZ = "Europe/London";
  });
  afterAll(() => {
    process.env.TZ = zone;
  });

  const at = "2026-11-24T06:30:00.000Z"; // 17:30 in Sydney, 22:30 the day before in Los Angeles

  it("the Info dialog's audit times", () => {
    const changes = [{ version: 2, field: "reference", from: "A", to: "B", by: "Dana", at }];
    expect(renderToStaticMarkup(<ChangesTable changes={changes} timeZone="Australia/Sydney" country="AUSTRALIA" />)).toContain(">24/11/2026 17:30<");
    expect(renderToStaticMarkup(<ChangesTable changes={changes} timeZone="America/Los_Angeles" country="UNITED STATES OF AMERICA" />)).toContain(">11/23/2026 22:30<");
  });

  it("the redespatch dialog's last despatch time", () => {
    const html = (timeZone: string, country: string) => renderToStaticMarkup(<LastDespatch number="SXMEL0000001" lastDespatchTime={at} timeZone={timeZone} country={country} />);
    expect(html("Australia/Sydney", "AUSTRALIA")).toContain(">24/11/2026 17:30<");
    expect(html("America/Los_Angeles", "UNITED STATES OF AMERICA")).toContain(">11/23/2026 22:30<");
    expect(renderToStaticMarkup(<LastDespatch number={null} lastDespatchTime={null} timeZone="Australia/Sydney" country="AUSTRALIA" />)).toContain(">Never<");
  });
});
