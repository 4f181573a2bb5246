import type { Millionths } from "./millionths.ts";

/** R.C. 5739.02: 5.75% since 2013-09-01; our history (2018-01-01 on) never reaches the 5.5% before it. */
export const OHIO_STATE_RATE: Millionths = 57_500;
