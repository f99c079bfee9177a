import { describe, expect, it } from "vitest";
import { CsvTextCheck, csvTextProblem } from "./csv-text";

const CASES = [
  'a,b\n1,"x ""y"" z"\n2,3\n',
  'a,b\n1,"two\nlines"\n',
  'a,b\n1,"x" \t,2\n',
  'a,b\n1,"x"y\n',
  'a,b\n1,"open\n2,3\n',
  "a,b\n1,\u0000\n",
  "\u0001PNG",
  'a,b\n1,5" pipe\n',
  'a\n""\n""""\n',
  'a,b\n"x"' + " ".repeat(70) + "y\n",
];

describe("CsvTextCheck", () => {
  it("finds the same problem whole as in pieces split anywhere", () => {
    for (const text of CASES) {
      const whole = csvTextProblem(text);
      for (let at = 0; at <= text.length; at++) {
        const check = new CsvTextCheck();
        const found = check.feed(text.slice(0, at)) ?? check.feed(text.slice(at)) ?? check.end();
        expect(found, `${JSON.stringify(text)} split at ${at}`).toBe(whole);
      }
    }
  });
  it("names each problem with its line", () => {
    expect(csvTextProblem(CASES[0]!)).toBeNull();
    expect(csvTextProblem(CASES[3]!)).toBe("Line 2 has text after a closing quote.");
    expect(csvTextProblem(CASES[4]!)).toBe("Line 2 opens a quote that is never closed.");
    expect(csvTextProblem(CASES[5]!)).toBe("Line 2 contains a NUL character, which cannot be imported.");
    expect(csvTextProblem(CASES[6]!)).toBe("The file is not a CSV text file.");
    expect(csvTextProblem(CASES[9]!)).toBeNull();
  });
  it("refuses a record longer than the limit, a quoted line break inside it counted", () => {
    const check = new CsvTextCheck(20);
    expect(check.feed("a,b\n1,2\n")).toBeNull();
    expect(check.feed('3,"' + "x".repeat(10) + "\n" + "y".repeat(10) + '"\n')).toBe("Line 4 is longer than 20 characters.");
  });
});
