import { describe, expect, it } from "vitest";
import { chooseBrowser, type BrowserLookup } from "./browser-path.server";

const PW = "/home/u/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome";
const PW_SHELL = "/home/u/.cache/ms-playwright/chromium_headless_shell-1255/chrome-headless-shell-linux64/chrome-headless-shell";

/** a machine with these executables and this environment */
const machine = (files: string[], env: Record<string, string | undefined> = {}): BrowserLookup => ({
  env: { PATH: "/usr/local/bin:/opt/google/bin", ...env },
  isExecutable: (file) => files.includes(file),
  playwrightPaths: () => [PW, PW_SHELL],
});

describe("which Chromium prints", () => {
  it("CHROMIUM_PATH first, whatever else is installed", () => {
    const everything = [PW, "/usr/bin/chromium"];
    expect(chooseBrowser(machine(everything, { CHROMIUM_PATH: "/opt/mine/chrome" }))).toEqual({ source: "CHROMIUM_PATH", executablePath: "/opt/mine/chrome" });
    expect(chooseBrowser(machine(everything, { CHROMIUM_PATH: "/opt/mine/chrome", FREIGHTDESK_BROWSER: "bundled" })).source).toBe("CHROMIUM_PATH");
  });

  it("then a browser Playwright installed (the full browser or its headless shell) before the system's", () => {
    expect(chooseBrowser(machine([PW, "/usr/bin/chromium"]))).toEqual({ source: "playwright", executablePath: PW });
    expect(chooseBrowser(machine([PW_SHELL, "/usr/bin/chromium"]))).toEqual({ source: "playwright", executablePath: PW_SHELL });
  });

  it("then a system chromium or google-chrome: on PATH, else in /usr/bin; chromium before google-chrome", () => {
    expect(chooseBrowser(machine(["/usr/bin/chromium"]))).toEqual({ source: "system", executablePath: "/usr/bin/chromium" });
    expect(chooseBrowser(machine(["/opt/google/bin/google-chrome"]))).toEqual({ source: "system", executablePath: "/opt/google/bin/google-chrome" });
    expect(chooseBrowser(machine(["/usr/local/bin/chromium", "/usr/bin/chromium"]))).toEqual({ source: "system", executablePath: "/usr/local/bin/chromium" });
    expect(chooseBrowser(machine(["/usr/bin/google-chrome", "/usr/bin/chromium-browser"]))).toEqual({ source: "system", executablePath: "/usr/bin/chromium-browser" });
  });

  it("else the Chromium bundled in @sparticuz/chromium: also when system files exist but cannot be run", () => {
    expect(chooseBrowser(machine([]))).toEqual({ source: "bundled", executablePath: null });
    // e.g. /usr/bin/chromium hidden under an empty, non-executable file
    const hidden: BrowserLookup = { ...machine([]), isExecutable: () => false };
    expect(chooseBrowser(hidden).source).toBe("bundled");
  });

  it("FREIGHTDESK_BROWSER=bundled skips Playwright's and the system's; another value is refused", () => {
    expect(chooseBrowser(machine([PW, "/usr/bin/chromium"], { FREIGHTDESK_BROWSER: "bundled" }))).toEqual({ source: "bundled", executablePath: null });
    expect(chooseBrowser(machine(["/usr/bin/chromium"], { FREIGHTDESK_BROWSER: "auto" })).source).toBe("system");
    expect(() => chooseBrowser(machine([], { FREIGHTDESK_BROWSER: "system" }))).toThrow('FREIGHTDESK_BROWSER must be "auto" or "bundled", not "system"');
  });
});
