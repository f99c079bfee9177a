import { describe, expect, it } from "vitest";
import { printMessages } from "./messages";

describe("print messages (spec 1 section 8)", () => {
  it("say sent, printed and failed in the singular and the plural", () => {
    expect(printMessages.sent(1)).toBe("1 label sent to printer.");
    expect(printMessages.sent(4)).toBe("4 labels sent to printer.");
    expect(printMessages.printed(1, "manifest")).toBe("1 manifest printed.");
    expect(printMessages.failed(2, "consignment note")).toBe("2 consignment notes failed to print.");
  });

  it("name the printer kind when none is configured or saving fails", () => {
    expect(printMessages.noPrinter("label")).toBe("You do not have a valid label printer configured, please update your printer configuration and re-print.");
    expect(printMessages.saveFailed("connote")).toBe("Error saving new configuration for connote printer.");
  });
});
