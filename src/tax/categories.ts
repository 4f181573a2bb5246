/**
 * Product categories whose Ohio answer the Revised Code states outright (data/SOURCES.md, "Product
 * categories"): a line may name one instead of an exempt flag. Anything else is sent as taxable or with
 * `exempt: true` and the merchant's own reason; an unknown category is refused rather than guessed.
 */
export interface ProductCategory {
  taxable: boolean;
  /** Why: the statute that makes it taxable or exempt. */
  basis: string;
}

export const PRODUCT_CATEGORIES: Readonly<Record<string, ProductCategory>> = {
  "general-merchandise": {
    taxable: true,
    basis: "R.C. 5739.02: the tax is levied on each retail sale of tangible personal property unless a division of 5739.02(B) exempts it",
  },
  "food-for-home-consumption": {
    taxable: false,
    basis: "R.C. 5739.02(B)(2): sales of food for human consumption off the premises where sold are exempt",
  },
  "prescription-drug": {
    taxable: false,
    basis: "R.C. 5739.02(B)(18): sales of drugs for a human being that may be dispensed only pursuant to a prescription are exempt",
  },
};

export function isProductCategory(name: string): boolean {
  return Object.hasOwn(PRODUCT_CATEGORIES, name);
}
