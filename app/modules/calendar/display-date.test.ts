import { describe, expect, it } from "vitest";
import { dateFormatOf, displayDateToIso, forPerson, formatDisplayDate, parseDisplayDate, reexpressDate, typedDateProblem } from "./display-date";

const AU = "AUSTRALIA";
const NZ = "NEW ZEALAND";
const US = "UNITED STATES OF AMERICA";

describe("dates as a site types and reads them", () => {
  it("DD/MM/YYYY, MM/DD/YYYY in the United States, always 10 characters", () => {
    expect(dateFormatOf(AU)).toBe("DD/MM/YYYY");
    expect(dateFormatOf(null)).toBe("DD/MM/YYYY");
    expect(dateFormatOf(US)).toBe("MM/DD/YYYY");
    expect(formatDisplayDate("2026-11-24", AU)).toBe("24/11/2026");
    expect(formatDisplayDate("2026-11-24", NZ)).toBe("24/11/2026");
    expect(formatDisplayDate("2026-11-24", US)).toBe("11/24/2026");
    expect(formatDisplayDate("2026-01-05 09:15", US)).toBe("01/05/2026");
    expect(formatDisplayDate(null, AU)).toBe("");
  });

  it("reads the country's format back to YYYY-MM-DD; ISO passes; anything else is left for the server to refuse", () => {
    expect(parseDisplayDate("24/11/2026", AU)).toBe("2026-11-24");
    expect(parseDisplayDate("11/24/2026", US)).toBe("2026-11-24");
    expect(parseDisplayDate(" 5/1/2026 ", US)).toBe("2026-05-01");
    expect(parseDisplayDate("2026-11-24", US)).toBe("2026-11-24");
    expect(parseDisplayDate("24/11/26", AU)).toBe("24/11/26");
    // the Australian reading of a US date is no date: month 24
    expect(parseDisplayDate("24/11/2026", US)).toBe("2026-24-11");
  });

  it("a real date or nothing", () => {
    expect(displayDateToIso("24/11/2026", AU)).toBe("2026-11-24");
    expect(displayDateToIso("24/11/2026", US)).toBeNull();
    expect(displayDateToIso("31/02/2026", AU)).toBeNull();
    expect(displayDateToIso("24/11", AU)).toBeNull();
    expect(displayDateToIso("2026-11-24", US)).toBe("2026-11-24");
  });

  it("a date typed for one site is written again for another when the country's format differs", () => {
    expect(reexpressDate("24/11/2026", AU, US)).toBe("11/24/2026");
    expect(reexpressDate("11/24/2026", US, AU)).toBe("24/11/2026");
    expect(reexpressDate("05/01/2026", AU, US)).toBe("01/05/2026");
    expect(reexpressDate("24/11/2026", AU, NZ)).toBe("24/11/2026");
    expect(reexpressDate("11/24/2026", US, US)).toBe("11/24/2026");
    // half typed or no date: left as typed
    expect(reexpressDate("24/11/20", AU, US)).toBe("24/11/20");
    expect(reexpressDate("", AU, US)).toBe("");
    expect(reexpressDate("31/02/2026", AU, US)).toBe("31/02/2026");
  });

  it("messages about dates name the format the person types in", () => {
    expect(forPerson("Despatch date must be a date (YYYY-MM-DD)", US)).toBe("Despatch date must be a date (MM/DD/YYYY)");
    expect(forPerson("Pickup at must be a date and time (YYYY-MM-DD HH:mm)", AU)).toBe("Pickup at must be a date and time (DD/MM/YYYY HH:mm)");
    expect(forPerson("Despatch date cannot be in the past", US)).toBe("Despatch date cannot be in the past");
    // a whole date that is none (the Australian way at a US site) says so; half typed says nothing yet
    expect(typedDateProblem("24/11/2026", US, "Despatch date")).toBe("Despatch date must be a date (MM/DD/YYYY)");
    expect(typedDateProblem("11/24/2026", US, "Despatch date")).toBeNull();
    expect(typedDateProblem("24/11/20", AU, "Despatch date")).toBeNull();
    expect(typedDateProblem("31/02/2026", AU, "Despatch date")).toBe("Despatch date must be a date (DD/MM/YYYY)");
  });

  it("a round trip through any format gives the same day", () => {
    for (const iso of ["2026-01-01", "2026-02-28", "2028-02-29", "2026-12-31", "2026-11-05"]) {
      for (const country of [AU, NZ, US]) {
        const shown = formatDisplayDate(iso, country);
        expect(shown).toHaveLength(10);
        expect(parseDisplayDate(shown, country)).toBe(iso);
      }
      expect(parseDisplayDate(reexpressDate(formatDisplayDate(iso, AU), AU, US), US)).toBe(iso);
    }
  });
});
