/**
 * Where an operator gets the state's rate file, said once for every place that tells them to: a fresh
 * install's rates are stale until it is reconciled with that file, and nothing can fetch it for them
 * (the state's site refuses non-browser clients; docs/guides/webhooks-and-jobs.md).
 */
export const RATE_FILE_DOWNLOAD =
  "download the state's current SST rate file (OHRyyyyQqMMMDD, CSV or ZIP) from the Ohio Department of Taxation's Finder, https://thefinder.tax.ohio.gov (its downloads: the Streamlined Sales Tax rate database table), then run `buckeye reconcile --source <that file>`";
