import { webConcurrency } from "../../app/services.server";

const GiB = 1024 ** 3;
const postgres = "postgres://postgres@127.0.0.1:5432/freightdesk";

describe("how many web processes the server runs (WEB_CONCURRENCY)", () => {
  it("runs one process over the embedded PGlite database, whatever the cores", () => {
    expect(webConcurrency({}, { cores: 8, memoryBytes: 64 * GiB }).processes).toBe(1);
    expect(webConcurrency({ WEB_CONCURRENCY: 1 }, { cores: 8, memoryBytes: 64 * GiB }).processes).toBe(1);
  });

  it("refuses more than one over PGlite, which belongs to the process that opened it", () => {
    expect(() => webConcurrency({ WEB_CONCURRENCY: 2 }, { cores: 8, memoryBytes: 64 * GiB })).toThrow(
      "WEB_CONCURRENCY=2 needs PostgreSQL (DATABASE_URL): the embedded PGlite database belongs to one process.",
    );
  });

  it("runs one per core over PostgreSQL by default", () => {
    expect(webConcurrency({ DATABASE_URL: postgres }, { cores: 2, memoryBytes: 24 * GiB })).toEqual({ processes: 2, reason: "one per core (2)" });
  });

  it("runs fewer than the cores when the memory would not hold a renderer (1 GiB) in each", () => {
    expect(webConcurrency({ DATABASE_URL: postgres }, { cores: 8, memoryBytes: 3.5 * GiB })).toEqual({ processes: 3, reason: "8 cores, memory for 3" });
    expect(webConcurrency({ DATABASE_URL: postgres }, { cores: 4, memoryBytes: 0.5 * GiB }).processes).toBe(1);
  });

  it("runs what WEB_CONCURRENCY asks for over PostgreSQL", () => {
    expect(webConcurrency({ DATABASE_URL: postgres, WEB_CONCURRENCY: 3 }, { cores: 2, memoryBytes: 2 * GiB }).processes).toBe(3);
  });
});
