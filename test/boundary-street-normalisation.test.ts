/**
 * USPS Publication 28 standardisation (src/boundaries/pub28.ts): the key the importer builds from a
 * record and the probe builds from a parsed address must agree, whatever spelling either side uses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { directionalVariants, houseNumberValue, sameStreetKeys, streetKeyParts, parseUnit, standardSuffix, standardUnitDesignator, streetKey } from "../src/boundaries/pub28.ts";

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

describe("highways are spelled out as Pub 28 §237 writes them, whatever short form was used", () => {
  it.each([
    ["State Route 3", "STATE ROUTE 3"], ["SR 3", "STATE ROUTE 3"], ["S.R. 3", "STATE ROUTE 3"], ["St Rt 3", "STATE ROUTE 3"], ["St. Rte. 3", "STATE ROUTE 3"],
    ["OH-3", "STATE ROUTE 3"], ["Ohio 3", "STATE ROUTE 3"], ["SR3", "STATE ROUTE 3"], ["State Hwy 3", "STATE ROUTE 3"], ["Ohio State Route 3", "STATE ROUTE 3"],
    ["County Road 12", "COUNTY ROAD 12"], ["CR 12", "COUNTY ROAD 12"], ["Co Rd 12", "COUNTY ROAD 12"], ["Co. Rd. 12", "COUNTY ROAD 12"], ["Cnty Rd 12", "COUNTY ROAD 12"],
    ["Township Road 45", "TOWNSHIP ROAD 45"], ["TR 45", "TOWNSHIP ROAD 45"], ["Twp Rd 45", "TOWNSHIP ROAD 45"], ["T.R. 45", "TOWNSHIP ROAD 45"],
    ["US Route 23", "US HIGHWAY 23"], ["US 23", "US HIGHWAY 23"], ["U.S. Hwy 23", "US HIGHWAY 23"], ["US-23", "US HIGHWAY 23"], ["U.S. Route 23", "US HIGHWAY 23"],
    ["I-71", "INTERSTATE 71"],
  ])("%s → %s", (written, key) => {
    expect(streetKey({ streetName: written })).toBe(key);
  });

  it("a directional stays with the highway, before or after it", () => {
    expect(streetKey({ streetName: "SR 3", postDirectional: "North" })).toBe("STATE ROUTE 3 N");
    expect(streetKey({ preDirectional: "W", streetName: "US Hwy 23" })).toBe("W US HIGHWAY 23");
  });

  it("only before a route number: State St, Ohio Ave and Route Rd keep their names", () => {
    expect(streetKey({ streetName: "State", suffix: "St" })).toBe("STATE ST");
    expect(streetKey({ streetName: "Ohio", suffix: "Avenue" })).toBe("OHIO AVE");
    expect(streetKey({ streetName: "Oak", suffix: "Cr" })).not.toContain("COUNTY");
  });
});

describe("an ordinal spelled out is its numeral (Pub 28 §235)", () => {
  it.each([
    ["Fifth", "Ave", "5TH AVE"], ["5th", "Avenue", "5TH AVE"], ["First", "St", "1ST ST"], ["Twelfth", "St", "12TH ST"],
    ["Twenty-First", "St", "21ST ST"], ["Twenty First", "St", "21ST ST"], ["Thirtieth", "St", "30TH ST"], ["Forty Second", "St", "42ND ST"], ["Hundredth", "St", "100TH ST"],
  ])("%s %s → %s", (name, suffix, key) => {
    expect(streetKey({ streetName: name, suffix })).toBe(key);
  });
});

describe("the keys a street may be filed under without its directional, or with the caller's on the other side", () => {
  it("no directional given: each directional before or after the name", () => {
    const variants = directionalVariants(streetKeyParts({ streetName: "High", suffix: "St" }));
    expect(variants).toHaveLength(16);
    expect(variants).toEqual(expect.arrayContaining(["N HIGH ST", "HIGH ST N", "SW HIGH ST", "HIGH ST SW"]));
  });

  it("a directional given: the name without it, and the same directional on the other side, never another one", () => {
    expect(directionalVariants(streetKeyParts({ preDirectional: "North", streetName: "High", suffix: "St" }))).toEqual(["HIGH ST", "HIGH ST N"]);
    expect(directionalVariants(streetKeyParts({ streetName: "Main St", postDirectional: "W" }))).toEqual(["MAIN ST", "W MAIN ST"]);
    expect(directionalVariants(streetKeyParts({ preDirectional: "S", streetName: "High", suffix: "St" }))).not.toContain("N HIGH ST");
  });

  it("every key of the same name and suffix, which the index counts before it answers one of them", () => {
    const keys = sameStreetKeys(streetKeyParts({ preDirectional: "S", streetName: "High", suffix: "Street" }));
    expect(keys).toHaveLength(17);
    expect(keys).toEqual(expect.arrayContaining(["HIGH ST", "N HIGH ST", "HIGH ST N", "S HIGH ST"]));
  });
});
