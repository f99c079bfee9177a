import { describe, expect, it } from "vitest";
import { refusedAddress, URL_MESSAGES, urlProblem } from "./address";

describe("receiver addresses", () => {
  it.each([
    "127.0.0.1",
    "127.5.6.7",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",
    "169.254.169.254",
    "0.0.0.0",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "[::1]",
  ])("refuses %s", (address) => {
    expect(refusedAddress(address)).toMatch(/loopback, private, link-local or unspecified/);
  });

  it.each(["93.184.216.34", "172.32.0.1", "100.128.0.1", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "example.com"])("allows %s", (address) => {
    expect(refusedAddress(address)).toBeNull();
  });
});

describe("a URL at save", () => {
  it("must be https, with no credentials, outside the network, each with its own message", () => {
    expect(urlProblem("not a url", false)).toBe(URL_MESSAGES.invalid);
    expect(urlProblem("http://example.com/hook", false)).toBe(URL_MESSAGES.https);
    expect(urlProblem("ftp://example.com/hook", false)).toBe(URL_MESSAGES.https);
    expect(urlProblem("https://user:pw@example.com/hook", false)).toBe(URL_MESSAGES.credentials);
    expect(urlProblem("https://localhost/hook", false)).toBe(URL_MESSAGES.localhost);
    expect(urlProblem("https://LOCALHOST./hook", false)).toBe(URL_MESSAGES.localhost);
    expect(urlProblem("https://api.localhost/hook", false)).toBe(URL_MESSAGES.localhost);
    expect(urlProblem("https://169.254.169.254/latest/meta-data", false)).toMatch(/^URL must not point inside the network: 169\.254\.169\.254/);
    expect(urlProblem("https://[::1]:8443/hook", false)).toMatch(/inside the network/);
    expect(urlProblem("https://[::ffff:10.0.0.1]/hook", false)).toMatch(/inside the network/);
    // other spellings of loopback, which URL parsing turns into 127.0.0.1
    expect(urlProblem("https://2130706433/hook", false)).toMatch(/inside the network: 127\.0\.0\.1/);
    expect(urlProblem("https://0x7f.1/hook", false)).toMatch(/inside the network: 127\.0\.0\.1/);
    expect(urlProblem("https://hooks.example.com/freightdesk", false)).toBeNull();
  });

  it("allows http and local receivers with the development setting", () => {
    expect(urlProblem("http://127.0.0.1:4000/hook", true)).toBeNull();
    expect(urlProblem("http://localhost:4000/hook", true)).toBeNull();
    expect(urlProblem("ftp://example.com/hook", true)).toBe(URL_MESSAGES.https);
  });
});
