/**
 * USPS Publication 28 standardisation (src/boundaries/pub28.ts): the key the importer builds from a
 * record and the probe builds from a parsed address must agree, whatever spelling either side uses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { houseNumberValue, parseUnit, standardSuffix, standardUnitDesignator, streetKey } from "../src/boundaries/pub28.ts";

describe("directionals are abbreviated (Pub 28 §233)", () => {
  it("spelled-out and abbreviated pre- and post-directionals give one key", () => {
    expect(streetKey({ preDirectional: "North", streetName: "High", suffix: "Street" })).toBe("N HIGH ST");
    expect(streetKey({ preDirectional: "n.", streetName: "high", suffix: "st" })).toBe("N HIGH ST");
    expect(streetKey({ streetName: "Main", suffix: "Ave", postDirectional: "Southwest" })).toBe("MAIN AVE SW");
  });

  it("a directional left inside the street name by a parser is still found", () => {
    expect(streetKey({ streetName: "North High Street" })).toBe("N HIGH ST");
    expect(streetKey({ streetName: "Broad St West" })).toBe("BROAD ST W");
  });

  it("a directional that is the whole street name stays a word (North Ave, West St)", () => {
    expect(streetKey({ streetName: "North", suffix: "Avenue" })).toBe("NORTH AVE");
    expect(streetKey({ streetName: "West", suffix: "St" })).toBe("WEST ST");
  });
});

describe("street suffixes take their Appendix C1 abbreviation", () => {
  it.each([
    ["Avenue", "AVE"], ["Av", "AVE"], ["Boulevard", "BLVD"], ["Parkway", "PKWY"], ["Pky", "PKWY"],
    ["Circle", "CIR"], ["Terrace", "TER"], ["Lane", "LN"], ["Court", "CT"], ["Drive", "DR"], ["Road", "RD"], ["Highway", "HWY"],
  ])("%s → %s", (spelling, standard) => {
    expect(standardSuffix(spelling)).toBe(standard);
    expect(streetKey({ streetName: "Oak", suffix: spelling })).toBe(`OAK ${standard}`);
  });

  it("only the last word is a suffix, and never the only word (Avenue D keeps its name)", () => {
    expect(streetKey({ streetName: "Avenue D" })).toBe("AVENUE D");
    expect(streetKey({ streetName: "Park Place", suffix: "Court" })).toBe("PARK PLACE CT");
    expect(streetKey({ streetName: "Martin Luther King Jr", suffix: "Boulevard" })).toBe("MARTIN LUTHER KING JR BLVD");
  });

  it("a word that is no suffix is not changed", () => {
    expect(standardSuffix("Gizmo")).toBeNull();
    expect(streetKey({ streetName: "Main Gizmo" })).toBe("MAIN GIZMO");
  });
});

describe("secondary unit designators take their Appendix C2 abbreviation", () => {
  it.each([
    ["Apartment 4", "APT", "4"], ["apt. 4B", "APT", "4B"], ["#12", "#", "12"], ["Suite 200", "STE", "200"],
    ["Unit 7", "UNIT", "7"], ["Floor 3", "FL", "3"], ["Room 101", "RM", "101"], ["9", null, "9"],
  ])("%s", (text, designator, number) => {
    expect(parseUnit(text)).toEqual({ designator, number });
  });

  it("no unit is null; a record's designator is standardised the same way", () => {
    expect(parseUnit(undefined)).toBeNull();
    expect(parseUnit("  ")).toBeNull();
    expect(standardUnitDesignator("Apartment")).toBe("APT");
    expect(standardUnitDesignator("SUITE")).toBe("STE");
  });
});

describe("house numbers compare by their leading whole number", () => {
  it.each([["1234", 1234], ["1234A", 1234], ["12-34", 12], [" 7 ", 7], ["A12", null], ["", null]])("%s → %s", (text, value) => {
    expect(houseNumberValue(text)).toBe(value);
  });
});

describe("the key is idempotent: standardising a key gives it back", () => {
  const word = fc.constantFrom(
    "North", "N", "south", "SW", "Northeast", "High", "Main", "Avenue", "Ave", "Street", "St", "Park", "Place", "Ct", "Court",
    "West", "Martin", "Luther", "King", "Jr", "Blvd", "Boulevard", "Pkwy", "D", "1st", "Route", "23", "Oak",
  );
  it("for any street of such words, in any parts", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), fc.option(word), fc.option(word), fc.option(word), (name, pre, suffix, post) => {
        const key = streetKey({ preDirectional: pre ?? undefined, streetName: name.join(" "), suffix: suffix ?? undefined, postDirectional: post ?? undefined });
        expect(streetKey({ streetName: key })).toBe(key);
      }),
      { numRuns: 2000 },
    );
  });
});
