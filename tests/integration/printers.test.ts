import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/demo";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let despatcher: Client;
type Json = { printers: Array<{ id: number; name: string; printer_type: string; format: string }>; configuration: Record<string, number | null> };

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  despatcher = new Client(server.url);
  await despatcher.signIn("despatcher@example.com");
}, 60_000);
afterAll(() => server.close());

describe("printers", () => {
  it("lists the customer's printers and the user's configuration; saves all three, each of its kind", async () => {
    const list = (await despatcher.json<Json>("/api/printers")).body;
    expect(list.printers.map((p) => p.printer_type).sort()).toEqual(["Connote", "Label", "Label", "Manifest"]);
    const zebra = list.printers.find((p) => p.format === "zpl")!;
    const a4 = (type: string) => list.printers.find((p) => p.printer_type === type)!.id;
    expect(list.configuration.label).not.toBe(zebra.id);

    const wrongKind = await despatcher.json<{ errors: Record<string, string[]> }>("/api/printers", {
      json: { label_printer_id: a4("Manifest"), manifest_printer_id: a4("Manifest"), connote_printer_id: a4("Connote") },
    });
    expect(wrongKind.status).toBe(422);
    expect(wrongKind.body.errors).toEqual({ label_printer_id: ["Error saving new configuration for label printer."] });
    const missing = await despatcher.json<{ errors: Record<string, string[]> }>("/api/printers", { json: { label_printer_id: zebra.id } });
    expect(missing.body.errors.manifest_printer_id).toEqual(["Choose a manifest printer"]);

    const saved = await despatcher.json<Json>("/api/printers", { json: { label_printer_id: zebra.id, manifest_printer_id: a4("Manifest"), connote_printer_id: a4("Connote") } });
    expect(saved.body.configuration).toEqual({ label: zebra.id, manifest: a4("Manifest"), connote: a4("Connote") });
    const label = await despatcher.json<{ url: string; printer: { name: string } }>("/api/printers/type/Label?printable_type=consignment&printable_id=42");
    expect(label.body).toEqual({ printer: expect.objectContaining({ name: "Zebra thermal (ZPL)" }), url: "/print/42/labels?format=zpl" });

    const pdfPrinter = list.printers.find((p) => p.printer_type === "Label" && p.format === "pdf")!;
    await despatcher.json(`/api/printers/${pdfPrinter.id}`, { method: "PUT" });
    expect((await despatcher.json<{ url: string }>("/api/printers/type/Label?printable_type=consignment&printable_id=42")).body.url).toBe("/print/42/labels");
    expect((await despatcher.json<{ url: string }>("/api/printers/type/Connote?printable_type=consignment&printable_id=7,8")).body.url).toBe("/print/consignment_notes?ids=7,8");
  });

  it("says so when the user has no printer of a kind, and keeps other customers' printers out", async () => {
    const tester = new Client(server.url);
    await tester.signIn("tester@example.com");
    const none = await tester.json<{ errors: Record<string, string[]> }>("/api/printers/type/Label?printable_type=consignment&printable_id=1");
    expect(none.status).toBe(422);
    expect(none.body.errors.printer).toEqual(["You do not have a valid label printer configured, please update your printer configuration and re-print."]);
    const acmePrinter = (await despatcher.json<Json>("/api/printers")).body.printers[0]!;
    expect((await tester.json(`/api/printers/${acmePrinter.id}`, { method: "PUT" })).status).toBe(404);
    expect((await tester.json<Json>("/api/printers")).body.printers).toEqual([]);
  });
});
