/**
 * The tax on a sale, computed without HTTP or a database (src/tax/): the state's rounding rule at its
 * boundary, item against invoice basis, exempt lines, delivery charges, refunds, and a property test
 * over random carts. Every expected figure is worked by hand in docs/guides/tax-and-returns.md.
 */
import { describe, expect, it } from "vitest";
import { computeTax, type JurisdictionRate, type RoundingBasis, type SaleLine } from "../src/tax/compute-tax.ts";
import { formatCents, parseMoney } from "../src/tax/money.ts";
import { addFigures, everythingLeft, negateFigures, refundFigures, ZERO_FIGURES, type LedgerFigures, type RecordedSale, type SaleRemainder } from "../src/tax/refund.ts";
import { formatExact, roundToCent, taxAt } from "../src/tax/rounding.ts";
import { chooseSourcing } from "../src/tax/sourcing.ts";

const ADAMS: JurisdictionRate[] = [
  { jurisdiction: "state", name: "Ohio", rate: 57_500 },
  { jurisdiction: "county", name: "Adams County", rate: 15_000 },
  { jurisdiction: "transit", name: "none", rate: 0 },
];
const DELAWARE_COTA: JurisdictionRate[] = [
  { jurisdiction: "state", name: "Ohio", rate: 57_500 },
  { jurisdiction: "county", name: "Delaware County", rate: 12_500 },
  { jurisdiction: "transit", name: "COTA", rate: 10_000 },
];

const line = (id: string, price: string, options: Partial<SaleLine> = {}): SaleLine => ({ id, gross: parseMoney(price)!, discount: 0, exemptReason: null, ...options });
const tax = (lines: SaleLine[], rates: JurisdictionRate[], basis: RoundingBasis = "invoice", delivery = 0) => computeTax({ lines, delivery, rates, basis });
const byName = (computation: ReturnType<typeof tax>) => Object.fromEntries(computation.jurisdictions.map((j) => [j.jurisdiction, formatCents(j.tax)]));

describe("money: decimal strings with two places, integer cents in between", () => {
  it("reads whole cents from text and writes two places; refuses a third decimal, a sign and exponents", () => {
    expect(parseMoney("19.99")).toBe(1999);
    expect(parseMoney("5")).toBe(500);
    expect(parseMoney("0.5")).toBe(50);
    expect(parseMoney("0.785")).toBeNull();
    expect(parseMoney("-1.00")).toBeNull();
    expect(parseMoney("1e3")).toBeNull();
    expect(formatCents(1999)).toBe("19.99");
    expect(formatCents(-50)).toBe("-0.50");
    expect(formatCents(0)).toBe("0.00");
  });
});

describe("R.C. 5739.025 and SSUTA section 324: carried to the third decimal, a cent up when the third decimal is more than four", () => {
  it("0.78 at 5.75 % is 0.044850: third decimal 4, so 0.04; 0.79 is 0.045425: third decimal 5, so 0.05", () => {
    expect(formatExact(BigInt(78) * 57_500n)).toBe("0.044850");
    expect(taxAt(78, 57_500)).toBe(4);
    expect(formatExact(BigInt(79) * 57_500n)).toBe("0.045425");
    expect(taxAt(79, 57_500)).toBe(5);
  });

  it("digits past the third decimal do not count: 0.0149999 is 0.01, 0.0150000 is 0.02", () => {
    expect(roundToCent(1_499_999n)).toBe(1);
    expect(roundToCent(1_500_000n)).toBe(2);
    expect(roundToCent(-1_500_000n)).toBe(-2);
  });

  it("R.C. 5739.025(E) rounds the sale's tax on the aggregate rate: 0.62 in Adams County (7.25 %) is 0.044950, third decimal 4, so 0.04; 0.63 is 0.045675, third decimal 5, so 0.05", () => {
    const low = tax([line("a", "0.62")], ADAMS);
    expect(formatExact(low.exact)).toBe("0.044950");
    expect(low.tax).toBe(4);
    const high = tax([line("a", "0.63")], ADAMS);
    expect(formatExact(high.exact)).toBe("0.045675");
    expect(high.tax).toBe(5);
  });

  it("each jurisdiction's tax is computed on its own and rounded, then a cent moved so they add up to what is collected: 0.62 is state 0.035650 → 0.04 and county 0.009300 → 0.01, 0.05 for 0.04 collected, so the state, which rounding raised most, gives a cent back", () => {
    const low = tax([line("a", "0.62")], ADAMS);
    expect(low.jurisdictions.map((j) => formatExact(j.exact))).toEqual(["0.035650", "0.009300", "0.000000"]);
    expect(byName(low)).toEqual({ state: "0.03", county: "0.01", transit: "0.00" });
    const high = tax([line("a", "0.63")], ADAMS);
    expect(byName(high)).toEqual({ state: "0.04", county: "0.01", transit: "0.00" });
  });
});

describe("item or invoice basis, as the organization chose (SSUTA section 324)", () => {
  it("two lines of 0.10 in Adams County: item basis rounds 0.007250 up on each line (0.02), invoice basis rounds 0.014500 once (0.01): a cent apart, all of it the state's", () => {
    const lines = [line("a", "0.10"), line("b", "0.10")];
    const item = tax(lines, ADAMS, "item");
    const invoice = tax(lines, ADAMS, "invoice");
    expect(item.lines.map((l) => l.taxes!.map((t) => t.tax))).toEqual([[1, 0, 0], [1, 0, 0]]);
    expect(byName(item)).toEqual({ state: "0.02", county: "0.00", transit: "0.00" });
    expect(byName(invoice)).toEqual({ state: "0.01", county: "0.00", transit: "0.00" });
    expect(item.tax - invoice.tax).toBe(1);
    expect(invoice.lines.every((l) => l.taxes === null)).toBe(true);
  });
});

describe("a transit district's levy is its own jurisdiction", () => {
  it("19.99 inside COTA's part of Delaware County: state 1.149425 → 1.15, county 0.249875 → 0.25, COTA 0.199900 → 0.20; total 1.60", () => {
    const sale = tax([line("a", "19.99")], DELAWARE_COTA);
    expect(sale.jurisdictions.map((j) => formatExact(j.exact))).toEqual(["1.149425", "0.249875", "0.199900"]);
    expect(byName(sale)).toEqual({ state: "1.15", county: "0.25", transit: "0.20" });
    expect(formatCents(sale.tax)).toBe("1.60");
  });
});

describe("exempt lines and delivery charges (R.C. 5739.01(H)(1): delivery charges are part of the price)", () => {
  it("an exempt line is gross and exempt, never taxable; delivery is taxable in the share the taxable lines' price bears", () => {
    const sale = tax([line("taxable", "30.00"), line("food", "10.00", { exemptReason: "R.C. 5739.02(B)(2)" })], ADAMS, "invoice", 500);
    expect(sale.gross).toBe(4500);
    expect(sale.delivery).toMatchObject({ amount: 500, taxable: 375, exempt: 125 });
    expect(sale.exempt).toBe(1000 + 125);
    expect(sale.taxable).toBe(3000 + 375);
    // 33.75 × 7.25 % = 2.446875 → 2.45; by jurisdiction 33.75 × 5.75 % = 1.940625 → 1.94 and 33.75 × 1.5 % = 0.506250 → 0.51 (third decimal 6).
    expect(sale.tax).toBe(245);
    expect(byName(sale)).toEqual({ state: "1.94", county: "0.51", transit: "0.00" });
  });

  it("a discount lowers the price the tax is computed on", () => {
    const sale = tax([line("a", "20.00", { discount: 500 })], ADAMS);
    expect(sale.lines[0]).toMatchObject({ net: 1500, taxable: 1500 });
    expect(sale.tax).toBe(taxAt(1500, 72_500));
  });
});

describe("sourcing by R.C. 5739.033", () => {
  it("a pickup is sourced to the place of business; an order received at an Ohio location to that location; otherwise to ship_to", () => {
    expect(chooseSourcing({ pickup: true, orderLocation: true, shipTo: true })).toMatchObject({ rule: "pickup", statute: "R.C. 5739.033(C)(1)" });
    expect(chooseSourcing({ pickup: false, orderLocation: true, shipTo: true })).toMatchObject({ rule: "origin", statute: "R.C. 5739.033(B)(1)" });
    expect(chooseSourcing({ pickup: false, orderLocation: false, shipTo: true })).toMatchObject({ rule: "destination", statute: "R.C. 5739.033(C)(2)" });
    expect(chooseSourcing({ pickup: false, orderLocation: true, shipTo: false })).toEqual({ missing: "ship_to" });
  });
});

/** A small seeded generator (mulberry32): the same carts on every run, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const RATE_CHOICES = [0, 2_500, 5_000, 7_500, 10_000, 12_500, 15_000, 17_500, 22_500];

function randomCart(next: () => number) {
  const int = (max: number) => Math.floor(next() * (max + 1));
  const lines: SaleLine[] = Array.from({ length: 1 + int(12) }, (_, i) => {
    const gross = int(next() < 0.3 ? 200 : 250_000);
    return { id: `l${i}`, gross, discount: int(gross), exemptReason: next() < 0.25 ? "exempt" : null };
  });
  const rates: JurisdictionRate[] = [
    { jurisdiction: "state", name: "Ohio", rate: 57_500 },
    { jurisdiction: "county", name: "county", rate: RATE_CHOICES[int(RATE_CHOICES.length - 1)]! },
    { jurisdiction: "transit", name: "transit", rate: RATE_CHOICES[int(4)]! },
  ];
  return { lines, rates, delivery: next() < 0.5 ? 0 : int(5_000) };
}

describe("property: for random carts the jurisdictions add up to the total within the basis's rounding, and nothing is negative", () => {
  it("2,000 seeded carts on each basis", () => {
    const next = random(20261202);
    for (let n = 0; n < 2_000; n++) {
      const cart = randomCart(next);
      for (const basis of ["item", "invoice"] as const) {
        const sale = computeTax({ ...cart, basis });
        const context = JSON.stringify({ n, basis, cart });
        expect(sale.jurisdictions.reduce((sum, j) => sum + j.tax, 0), context).toBe(sale.tax);
        // Each rounding moves the total by at most half a cent (500,000 of the exact tax's hundred-millionths of a dollar), and a jurisdiction's amount by less than a cent.
        const gap = BigInt(sale.tax) * 1_000_000n - sale.exact;
        expect(gap <= BigInt(sale.roundings) * 500_000n && gap >= -BigInt(sale.roundings) * 500_000n, context).toBe(true);
        for (const j of sale.jurisdictions) {
          const off = BigInt(j.tax) * 1_000_000n - j.exact;
          expect(off < BigInt(sale.roundings) * 1_000_000n + 1n && off > -BigInt(sale.roundings) * 1_000_000n - 1n, context).toBe(true);
        }
        expect(sale.gross, context).toBe(sale.exempt + sale.taxable);
        const amounts = [sale.gross, sale.exempt, sale.taxable, sale.tax, sale.delivery.taxable, sale.delivery.exempt, ...sale.jurisdictions.map((j) => j.tax), ...sale.lines.flatMap((l) => [l.net, l.taxable, l.exempt])];
        expect(amounts.every((amount) => amount >= 0), context).toBe(true);
        if (basis === "item") {
          for (const [j, jurisdiction] of sale.jurisdictions.entries()) {
            const items = [...sale.lines.map((l) => l.taxes![j]?.tax ?? 0), sale.delivery.taxes![j]?.tax ?? 0];
            expect(items.reduce((a, b) => a + b, 0), context).toBe(jurisdiction.tax);
          }
        }
      }
    }
  });

  it("refunds in random parts, then the rest, bring every figure of a sale to exactly zero and never below it", () => {
    const next = random(5739025);
    for (let n = 0; n < 500; n++) {
      const cart = randomCart(next);
      const basis: RoundingBasis = next() < 0.5 ? "item" : "invoice";
      const sale = computeTax({ ...cart, basis });
      const recorded: RecordedSale = { lines: sale.lines, delivery: sale.delivery, rates: cart.rates, basis };
      const figures = (f: { gross: number; exempt: number; taxable: number; tax: number; jurisdictions: Array<{ tax: number }> }): LedgerFigures => ({
        gross: f.gross, exempt: f.exempt, taxable: f.taxable, tax: f.tax, state: f.jurisdictions[0]!.tax, county: f.jurisdictions[1]!.tax, transit: f.jurisdictions[2]!.tax,
      });
      let remainder: SaleRemainder = { lines: new Map(sale.lines.map((l) => [l.id, l.net])), delivery: sale.delivery.amount, figures: figures(sale) };
      for (let part = 0; part < 3; part++) {
        const lines = [...remainder.lines].map(([id, left]) => ({ id, amount: Math.floor(next() * (left + 1) * 0.5) }));
        const delivery = Math.floor(next() * remainder.delivery * 0.5);
        const outcome = refundFigures(recorded, remainder, { lines, delivery });
        if (!outcome.ok) continue;
        remainder = {
          lines: new Map([...remainder.lines].map(([id, left]) => [id, left - (lines.find((l) => l.id === id)?.amount ?? 0)])),
          delivery: remainder.delivery - delivery,
          figures: addFigures(remainder.figures, negateFigures(outcome.figures)),
        };
        expect(Object.values(remainder.figures).every((v) => v >= 0), JSON.stringify({ n, part })).toBe(true);
      }
      const rest = everythingLeft(remainder);
      if (rest.lines.length === 0 && rest.delivery === 0) continue;
      const last = refundFigures(recorded, remainder, rest);
      expect(last.ok && last.exhausts).toBe(true);
      if (last.ok) expect(addFigures(remainder.figures, negateFigures(last.figures))).toEqual(ZERO_FIGURES);
    }
  });

  it("a refund larger than what is left of a line is refused, naming the line's amount", () => {
    const sale = computeTax({ lines: [line("a", "10.00")], delivery: 0, rates: ADAMS, basis: "invoice" });
    const recorded: RecordedSale = { lines: sale.lines, delivery: sale.delivery, rates: ADAMS, basis: "invoice" };
    const remainder: SaleRemainder = { lines: new Map([["a", 400]]), delivery: 0, figures: { ...ZERO_FIGURES, gross: 400, taxable: 400, tax: 30, state: 24, county: 6 } };
    expect(refundFigures(recorded, remainder, { lines: [{ id: "a", amount: 401 }], delivery: 0 })).toMatchObject({ ok: false, field: "lines[0].amount" });
    expect(refundFigures(recorded, remainder, { lines: [{ id: "b", amount: 1 }], delivery: 0 })).toMatchObject({ ok: false, field: "lines[0].id" });
  });
});
