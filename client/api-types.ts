/**
 * The paths, operations and schemas of Buckeye's API as TypeScript types, for openapi-fetch.
 * GENERATED from GET /api/v1/openapi.json by `npm run client:types` (scripts/generate-client-types.ts):
 * do not edit by hand.
 */


export interface paths {
  "/api/v1/rates": {
    /**
     * The statutory rate for a county, ZIP, street address or point, at a date
     * @description Send `county`, `zip`, `address`, or `lat` with `lon`; when several are sent, this precedence applies. `address` wins: it is geocoded, and a `zip` sent with it is kept for the fallback when the address cannot be geocoded. Otherwise `lat` with `lon`: the point decides. A `county` sent with an address or a point is not used. Otherwise `county`: a `zip` sent with it must reach into that county (else 400 parameter-conflict), and the county answers. Otherwise `zip`: a ZIP that spans counties answers with the ambiguous response. Sending none of them is a 400, and so is an unknown or repeated parameter.
     */
    get: operations["getRate"];
  };
  "/api/v1/rates/batch": {
    /**
     * Up to 1,000 lookups answered inline, in input order, counted as one request
     * @description Each lookup is answered as GET /api/v1/rates would answer it, with its status beside its body; one bad lookup never fails the others. Address lookups are geocoded together, waiting at most GEOCODER_INLINE_BATCH_TIMEOUT_MS (30 s by default) for the geocoder: lookups it has not answered by then are answered as its outage is (their ZIP with a note, or 503 geocoder-unavailable in the item), the list still with 200. Larger files go to POST /api/v1/batches. A body nested deeper than 5 levels (the body, its list and a lookup's 3) is a 400, refused as it streams.
     */
    post: operations["getRatesBatch"];
  };
  "/api/v1/batches": {
    /**
     * Starts a batch job of up to 100,000 rows (CSV, NDJSON, or Ohio's Finder layout)
     * @description CSV with a header row naming the columns id, county, zip, address, lat, lon and date, or NDJSON with one lookup object per line. Address columns as exports name them are read too (street, address1, address2, street2, unit, suite, city, state, postal_code, zip4, plus4; a header in any case, spaces or hyphens for underscores): they are written into one address line, and address is then its street line. Exports' own headers are read too: Shopify's, WooCommerce's, BigCommerce's, Magento's, Square's, Amazon Seller Central's (tab-separated), QuickBooks' and Salesforce's, and common spellings (Address Line 1, AddressLine1, Street Address, Apt, Postal Code, ZIP Code), matched by their letters and digits in any case (the list: docs/guides/address-resolution.md, "Exports as platforms write them"). Where an export carries a shipping and a billing address, the shipping address is read unless address_side=billing. Any other header is read through the columns parameter. A file in which no column is read as an address part (address, a street line, unit, city, state, ZIP, +4; or lat with lon) while some column looks like one (its name holds address, street, addr, zip, postal, postcode, apt or line N) is refused with 400 before anything is stored, naming those columns, what was read and the columns mapping to send. Other columns (an export's name, phone, …) are ignored, not refused: the job lists every one as ignored_columns, and a row left with nothing to look up fails with a problem naming them; a row answered while a column that looks like an address part held a value that was not read carries unread_columns in the results. A file that is not UTF-8 is refused with 400 naming the line, row and byte offset. With ?format=finder the body is a headerless CSV in Ohio's Finder batch layout (invoice number, address, suite, city, state, ZIP, ZIP+4, as-of date MM/DD/YYYY, optional taxable amount), sent as text/csv; each row is checked against the layout's rules (field lengths, state OH, ZIP 5 digits, ZIP+4 4 digits, dates from 01/01/2004 and not in the future) and fails alone if it breaks one; a date before 2018-01-01 fails with 422 date-out-of-range. The job runs in the background; poll the Location until its status is completed, then fetch its results. Refused as the upload streams, before anything is stored: a line (an NDJSON line, or a CSV record with its quoted line breaks) longer than UPLOAD_MAX_LINE_BYTES (64 KiB by default) is a 413 batch-line-too-long, an NDJSON line nested deeper than 3 levels a 400, and row 100,001 a 413 batch-too-large; each names where. A field longer than its documented length, or holding a control character, fails its own row. Refused before the body is read: an upload past the organization's caps on jobs (counting its uploads being received) or on bytes being uploaded at once (429), or past the server's bytes being uploaded at once (503). Send Content-Length: without it an upload counts as 64 MiB.
     */
    post: operations["createBatch"];
  };
  "/api/v1/batches/{id}": {
    /**
     * A batch job's state and progress
     * @description Only the organization that submitted a job sees it; to any other it does not exist (404).
     */
    get: operations["getBatch"];
    /**
     * Deletes a batch job, its rows and its results
     * @description In any state: a queued job never runs, a running one is cancelled (what its runner has in hand is not stored). Afterwards the job and its results answer 404. Completed jobs are also deleted RETAIN_BATCH_JOBS_DAYS (7 by default) after they completed; deleting them sooner frees room under BATCH_JOBS_STORED_PER_ORG. Only the organization that submitted a job can delete it; to any other it does not exist (404).
     */
    delete: operations["deleteBatch"];
  };
  "/api/v1/batches/{id}/results": {
    /**
     * A finished job's results, as CSV or NDJSON, or a Finder job's results and errors files
     * @description One line per input row, in input order. ?format= or else Accept chooses the format (text/csv or application/x-ndjson); with neither, or *\/*, the results come in the format that was uploaded. A job uploaded with ?format=finder has two headerless CSV files besides: ?format=finder (its default, and what Accept: text/csv gives it), each row answered with one rate as its 9 Finder fields then county, fips, combined_rate, state_rate, county_permissive_rate, transit_authority_rate, resolved_by, effective_from, date_evaluated, note; and ?format=finder-errors, every other row as its 9 Finder fields then row, status, problem_type, problem_detail. Buckeye's CSV has a header line and the columns row, id, status, county, fips, combined_rate, state, county_permissive, transit_authority, transit_status, resolved_by, effective_from, date_evaluated, candidate_fips, lowest_combined_rate, note, problem_type, problem_detail, boundary_version, boundary_record_type, boundary_line, ambiguous, unread_columns (new columns are added at the end): ambiguous is true on a row whose ZIP spans counties and that has no single rate (status 200, candidate_fips and lowest_combined_rate in place of a rate), false otherwise. unread_columns (the last column) names, space-separated, a row's columns that look like part of an address, held a value and were not read: the row was answered from less than it was sent; blank on other rows. Each NDJSON line is {row, id, status, body}, body the rate record, ambiguous response or problem object a single lookup would have answered, and on a row that has some, unread_columns: [names]. An orders job's (POST /api/v1/tax/batches) line is one sale, in the upload's order: NDJSON {row, id, status, body}, id its order_id and status and body what POST /api/v1/tax (or, recorded, POST /api/v1/transactions) answers for it; CSV with the columns row, order_id, status, settled, date, county, fips, transit_district, gross, exempt, taxable, tax, state_tax, county_tax, transit_tax, rounding_basis, transaction_id, recorded, note, problem_type, problem_detail, problem_fields. Asking another job for a Finder file is a 400. Any other Accept is a 406. Until the job is completed the answer is a 409 with Retry-After. You have every row when the body ends cleanly and holds the job's total rows (its total, as GET /api/v1/batches/{id} shows; a CSV has a header line besides). A download cut short, because the job was deleted (DELETE, or the retention sweep) while it streamed, fails as a transfer: the connection is closed before the chunked body's end, never a clean end with fewer rows.
     */
    get: operations["getBatchResults"];
  };
  "/api/v1/counties": {
    /**
     * All 88 counties with their rates at a date
     * @description Filtered by the start of their name and sorted by name or by rate. Unknown or repeated parameters are refused.
     */
    get: operations["listCounties"];
  };
  "/api/v1/webhooks": {
    /**
     * This organization's webhooks
     * @description Every webhook of the key's organization and mode, without secrets.
     */
    get: operations["listWebhooks"];
    /**
     * Registers a webhook; the signing secret is shown only in this answer
     * @description The url must be https (http is accepted for test keys), and events a non-empty list of the subscribable event types. An organization has at most WEBHOOKS_PER_ORG webhooks (20 unless the operator sets it), disabled ones included: the next is a 409 webhook-limit-reached until one is deleted.
     */
    post: operations["createWebhook"];
  };
  "/api/v1/webhooks/{id}": {
    /**
     * One webhook
     * @description The webhook without its secret.
     */
    get: operations["getWebhook"];
    /**
     * Deletes a webhook
     * @description Its pending deliveries are cancelled with it.
     */
    delete: operations["deleteWebhook"];
    /**
     * Changes its url, events or status
     * @description Send only the fields to change. Setting status to active re-enables a webhook that was disabled after failing deliveries.
     */
    patch: operations["updateWebhook"];
  };
  "/api/v1/webhooks/{id}/rotate-secret": {
    /**
     * A new signing secret
     * @description The new secret appears only in this answer. The old one keeps signing, beside the new, for 24 hours.
     */
    post: operations["rotateWebhookSecret"];
  };
  "/api/v1/webhooks/{id}/test": {
    /**
     * Queues a webhook.test event for this webhook alone
     * @description The event is delivered as any other, whatever events the webhook subscribes to; follow it in the deliveries.
     */
    post: operations["sendWebhookTest"];
  };
  "/api/v1/webhooks/{id}/deliveries": {
    /**
     * Recent deliveries, newest first
     * @description Each delivery with every attempt: status code, latency, outcome and error.
     */
    get: operations["listWebhookDeliveries"];
  };
  "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
    /**
     * Queues a settled delivery's event again
     * @description With the same X-Webhook-ID, so receivers de-duplicate it, and a fresh retry schedule.
     */
    post: operations["redeliverWebhookDelivery"];
  };
  "/api/v1/webhooks/{id}/recover": {
    /**
     * Queues again the events this webhook missed since a time
     * @description Oldest first, up to 1000 events per call that this webhook never received; call again while remaining is above 0.
     */
    post: operations["recoverWebhookEvents"];
  };
  "/api/v1/certificates": {
    /**
     * This organization's certificates, a page at a time
     * @description The key's organization's certificates, soonest expiry first (then by id), `limit` to a page. Ask for the next page with `cursor` set to this page's `next_cursor`, until `next_cursor` is null. A certificate added or deleted between pages never makes the walk skip or repeat another.
     */
    get: operations["listCertificates"];
    /**
     * Records an exemption certificate
     * @description Buckeye sends certificate.expiring events before its expiry date. An organization keeps at most CERTIFICATES_PER_ORG certificates (10,000 unless the operator sets it): the next is a 409 certificate-limit-reached until some are deleted.
     */
    post: operations["createCertificate"];
  };
  "/api/v1/certificates/{id}": {
    /**
     * One certificate
     * @description As it was recorded.
     */
    get: operations["getCertificate"];
    /**
     * Deletes a certificate
     * @description No reminder is sent for it afterwards.
     */
    delete: operations["deleteCertificate"];
  };
  "/api/v1/reconciliations": {
    /**
     * The reconciliation log, newest first
     * @description Each run against the state's rate file, with the discrepancies it found.
     */
    get: operations["listReconciliations"];
  };
  "/api/v1/returns/{period}": {
    /**
     * The UST 1 worksheet of a filing period, by county
     * @description Sums the ledger of the calling key's environment (a test key reads the test ledger, a live key the live one) over the records dated in the period: per county with sales, gross, exempt and net taxable sales and the tax (a COTA district's part of Delaware, Fairfield, Licking or Union County on its own line, as the Department of Taxation numbers it); a refund or void counts in the period of its own date. Then the form's lines 1 to 9 with the prompt-payment discount in force for the due date. The period follows the organization's filing frequency: YYYY-MM for a monthly filer, YYYY-H1 or YYYY-H2 for a semiannual one. JSON, or CSV with ?format=csv or Accept: text/csv.
     */
    get: operations["getReturn"];
  };
  "/api/v1/tax": {
    /**
     * The tax on one sale, stored nowhere
     * @description The sale is sourced by R.C. 5739.033 (a pickup at one of the organization's locations; an order received at its Ohio location; else where the buyer receives the goods, `ship_to`, in any form a rate lookup takes), its places resolved as GET /api/v1/rates resolves them, and the tax computed for each jurisdiction separately (state, county, transit authority), carried to the third decimal and rounded by R.C. 5739.025 on the organization's item or invoice basis. A certificate of the customer's valid on the sale's date exempts its lines. Amounts are decimal strings with two places. A place rates cannot settle (a ZIP spanning counties, a county a transit district splits) answers its candidates and no tax (settled: false). docs/guides/tax-and-returns.md works examples cent by cent.
     */
    post: operations["calculateTax"];
  };
  "/api/v1/tax/batches": {
    /**
     * Starts a batch job of orders: each sale's tax calculated, and with record=true recorded, in the upload's order
     * @description A job like POST /api/v1/batches's (polled, downloaded and deleted at /api/v1/batches/{id}, under the same caps on jobs, rows, lines and bytes), whose rows are sales. NDJSON: one sale per line, the body POST /api/v1/tax takes, with order_id (required with record=true, as POST /api/v1/transactions requires it; otherwise it names the result row). CSV with a header row: one row per line item, order_id grouping the rows of one sale, which are contiguous. The order's columns (order_id, date, currency, customer_id, ship_to_address, ship_to_zip, ship_to_county, ship_to_lat, ship_to_lon, pickup_location_id, order_location_id, shipping, handling) may be repeated on each of its rows or given on its first; the line's (line_id, quantity, unit_price, amount, discount, exempt, exempt_reason, category) are each row's. A row without line_id is the order's nth line. Any other column is refused with 400, naming it, before anything is stored. Each sale is answered as POST /api/v1/tax answers it (its tax, the candidates of a place not settled, or the problem naming the field), or with record=true as POST /api/v1/transactions answers it, into the ledger of the key's environment (a test key's into the test ledger, a live key's into the live one): the same order_id and body answer the transaction already recorded (200), another body is that row's 409 transaction-conflict. A re-upload of the same file records nothing twice. One bad sale never fails the others. A CSV order whose rows disagree on an order field, or whose rows are apart, fails alone naming the field. Sales without a date are dated on the day the job was accepted. docs/guides/tax-and-returns.md, "Batches of orders", shows a file and its results.
     */
    post: operations["createOrderBatch"];
  };
  "/api/v1/tax/settings": {
    /**
     * The organization's rounding basis
     * @description invoice (the default) or item: SSUTA section 324 lets the seller choose.
     */
    get: operations["getTaxSettings"];
    /**
     * Sets the organization's rounding basis
     * @description Applies to every sale computed afterwards; a recorded sale keeps the basis it was computed on.
     */
    put: operations["putTaxSettings"];
  };
  "/api/v1/locations": {
    /**
     * The organization's locations
     * @description Oldest first.
     */
    get: operations["listLocations"];
    /**
     * Records one of the organization's places of business
     * @description A store or office where it receives orders or hands goods over, placed by a county, ZIP, address or point. It must settle one county and transit district today: a ZIP spanning counties is refused (422), a place that cannot be resolved answers the rate lookup's problem.
     */
    post: operations["createLocation"];
  };
  "/api/v1/locations/{id}": {
    /**
     * One location
     * @description As it was recorded.
     */
    get: operations["getLocation"];
    /**
     * Deletes a location
     * @description Sales already recorded keep what they were computed from; a sale naming it afterwards is refused.
     */
    delete: operations["deleteLocation"];
  };
  "/api/v1/transactions": {
    /**
     * The ledger by date, a page at a time
     * @description Sales, refunds and voids dated from `from` to `to` (both included), in date order (then by id). Ask for the next page with `cursor` set to this page's `next_cursor`, until it is null.
     */
    get: operations["listTransactions"];
    /**
     * Records a sale's tax in the ledger under the merchant's order id
     * @description Computed as POST /api/v1/tax computes it, then kept in the key's ledger (a test key's in the test ledger, a live key's in the live one). The same order_id and body answer the transaction already recorded (200); the same order_id with another body is a 409. A place that does not settle one county is refused (422 location-not-settled).
     */
    post: operations["recordTransaction"];
  };
  "/api/v1/transactions/{id}": {
    /**
     * One record of the ledger
     * @description With what it was computed from.
     */
    get: operations["getTransaction"];
  };
  "/api/v1/transactions/{id}/refunds": {
    /**
     * Records a refund of part or all of a sale
     * @description Its own record, pointing at the sale, with negative amounts dated on the refund's date in the sale's county, so it reduces the return of its own period. The tax taken back is computed at the sale's rates and basis and never passes what is left; a refund of more than is left of a line or of the delivery charges is refused (422 refund-exceeds-sale). The same refund_id and body answer the refund already recorded.
     */
    post: operations["refundTransaction"];
  };
  "/api/v1/transactions/{id}/void": {
    /**
     * Voids a sale: all that is left of it taken back
     * @description Its own record, negative, dated on the void's date. One per sale; asked again with the same body it answers the void already recorded. A sale refunded in full has nothing left to void (422).
     */
    post: operations["voidTransaction"];
  };
  "/api/v1/transactions/{id}/replay": {
    /**
     * A recorded sale computed again: from what it cites, and from today's data
     * @description as_recorded computes the sale again from the rates and basis its record cites (the record keeps them, since a later reconciliation may replace the periods they came from) and says whether that gives the recorded amounts; today places and rates the same sale, on its own date, with today's boundary file and rate table; differences lists what changed. A refund or void is replayed through its sale.
     */
    get: operations["replayTransaction"];
  };
  "/healthz": {
    /**
     * The process is up
     * @description Liveness: answers as long as the process serves HTTP.
     */
    get: operations["getHealth"];
  };
  "/readyz": {
    /**
     * Database reachable, data loaded, worker pool up
     * @description Readiness: a load balancer sends traffic only while this answers 200.
     */
    get: operations["getReadiness"];
  };
  "/api/v1/openapi.json": {
    /**
     * This document
     * @description The OpenAPI 3.1 description of this API, generated from the service's own schemas.
     */
    get: operations["getOpenApiDocument"];
  };
}

export interface webhooks {
  "rate.changed": {
    /**
     * The rate.changed event, as Buckeye POSTs it to a registered webhook
     * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
     */
    post: operations["rateChangedEvent"];
  };
  "rate.announced": {
    /**
     * The rate.announced event, as Buckeye POSTs it to a registered webhook
     * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
     */
    post: operations["rateAnnouncedEvent"];
  };
  "certificate.expiring": {
    /**
     * The certificate.expiring event, as Buckeye POSTs it to a registered webhook
     * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
     */
    post: operations["certificateExpiringEvent"];
  };
  "filing.due": {
    /**
     * The filing.due event, as Buckeye POSTs it to a registered webhook
     * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
     */
    post: operations["filingDueEvent"];
  };
  "webhook.test": {
    /**
     * The webhook.test event, as Buckeye POSTs it to a registered webhook
     * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
     */
    post: operations["webhookTestEvent"];
  };
}

export interface components {
  schemas: {
    /** @description An exact match: one county, one combined rate */
    RateRecord: {
      /** @description Canonical county name */
      county: string;
      /** @description 5-digit county FIPS code */
      fips: string;
      /** @description Total statutory decimal rate (0.08 means 8.00%) */
      combined_rate: number;
      components: components["schemas"]["RateComponents"];
      /** @description Effective date of the active rate; null: in effect, start unknown */
      effective_from: string | null;
      transit_district_possible: boolean;
      transit_district: components["schemas"]["TransitDistrict"] | null;
      has_upcoming_change: boolean;
      upcoming: components["schemas"]["Upcoming"] | null;
      date_evaluated: string;
      source: string;
      last_reconciled: string;
      /** @description Present only when date_evaluated is after the date the rates are confirmed through: a change the state enacted for that date may not be in the answer yet. Absent: the rates for date_evaluated are confirmed. */
      beyond_confirmed?: {
        /** @description The last day whose rates a source confirmed against the state's rate file */
        confirmed_through: string;
        /** @description Days from confirmed_through to date_evaluated */
        days_beyond: number;
        message: string;
      };
      jurisdiction_type: string;
      statutory_sourcing: string;
      /**
       * @description How the location was settled: county_param; zip_unambiguous: a ZIP in one county, per the state's SST boundary file when it covers the ZIP (then boundary_record cites its record), else per the Census ZCTA table; address_range / zip4_range: an address range (A) or ZIP+4 range (4) record of the state's SST boundary file (see boundary_record); address_geocoding: the Census Geocoder and our polygons; zip_fallback; coordinates
       * @enum {string}
       */
      resolved_by: "county_param" | "zip_unambiguous" | "address_range" | "zip4_range" | "address_geocoding" | "zip_fallback" | "coordinates";
      /** @description With resolved_by address_range or zip4_range: the record that decided; with zip_unambiguous: a record of the state's boundary file for the ZIP, all of whose records in effect name this county and transit status. For audit */
      boundary_record?: {
        /** @description The boundary file version, from its name, e.g. OHB2026Q4SEP17; a SYNTHETIC file's (made-up test data, never the state's) ends in -SYNTHETIC */
        version: string;
        /**
         * @description A: address range; 4: ZIP+4 range; Z: whole-ZIP range (a ZIP lookup citing the ZIP's records)
         * @enum {string}
         */
        record_type: "4" | "A" | "Z";
        /** @description The record's line in the imported file */
        line: number;
        /** @description The record's begin date */
        effective_from: string;
        /** @description The record's end date, the last day it applies; null: open */
        effective_to: string | null;
        county_fips: string;
        /** @description The SST code of the record's transit district; null: none */
        transit_code: string | null;
      };
      /** @description Present on an address lookup the state's boundary file did not settle: why, so the address can be corrected. The answer then comes from the next rung (the geocoder, or the ZIP) */
      boundary_file_miss?: {
        /**
         * @description no_zip_or_city: the address has no ZIP and names no city the file holds; no_house_number: it begins with no house number; po_box: a PO box or rural route box, which no street range holds; zip_not_in_file: the file holds no street in its ZIP; no_street_in_zip: no street of that name (with that suffix and directional) in its ZIP; ambiguous_street: several streets could be meant (see candidates); number_outside_ranges: the street is there, but none of its ranges holds the house number (on its side of the street, on the date, with that unit); ambiguous_record: several records hold it (see candidates)
         * @enum {string}
         */
        reason: "no_zip_or_city" | "no_house_number" | "po_box" | "zip_not_in_file" | "no_street_in_zip" | "ambiguous_street" | "number_outside_ranges" | "ambiguous_record";
        /** @description The streets the address could mean or was matched to: with ambiguous_street and ambiguous_record, every one; with number_outside_ranges, the street found; else empty */
        candidates: {
            zip: string;
            /** @description The street as the file holds it, in USPS Pub 28 standard form */
            street: string;
          }[];
      };
      /** @constant */
      ambiguous: false;
      /** @description Why a fallback was taken, or what a caller should check */
      note?: string;
      request_id: string;
    };
    /** @description A ZIP that spans several counties: every candidate, and the lowest rate */
    AmbiguousResponse: {
      /** @constant */
      ambiguous: true;
      zip: string;
      message: string;
      candidate_counties: components["schemas"]["CandidateCounty"][];
      /** @description The lowest candidate rate, which a seller without the address may collect */
      lowest_combined_rate: number;
      lowest_rate_basis: string;
      date_evaluated: string;
      source: string;
      last_reconciled: string;
      /** @description Present only when date_evaluated is after the date the rates are confirmed through: a change the state enacted for that date may not be in the answer yet. Absent: the rates for date_evaluated are confirmed. */
      beyond_confirmed?: {
        /** @description The last day whose rates a source confirmed against the state's rate file */
        confirmed_through: string;
        /** @description Days from confirmed_through to date_evaluated */
        days_beyond: number;
        message: string;
      };
      /** @description Present on an address lookup the state's boundary file did not settle: why, so the address can be corrected. The answer then comes from the next rung (the geocoder, or the ZIP) */
      boundary_file_miss?: {
        /**
         * @description no_zip_or_city: the address has no ZIP and names no city the file holds; no_house_number: it begins with no house number; po_box: a PO box or rural route box, which no street range holds; zip_not_in_file: the file holds no street in its ZIP; no_street_in_zip: no street of that name (with that suffix and directional) in its ZIP; ambiguous_street: several streets could be meant (see candidates); number_outside_ranges: the street is there, but none of its ranges holds the house number (on its side of the street, on the date, with that unit); ambiguous_record: several records hold it (see candidates)
         * @enum {string}
         */
        reason: "no_zip_or_city" | "no_house_number" | "po_box" | "zip_not_in_file" | "no_street_in_zip" | "ambiguous_street" | "number_outside_ranges" | "ambiguous_record";
        /** @description The streets the address could mean or was matched to: with ambiguous_street and ambiguous_record, every one; with number_outside_ranges, the street found; else empty */
        candidates: {
            zip: string;
            /** @description The street as the file holds it, in USPS Pub 28 standard form */
            street: string;
          }[];
      };
      note?: string;
      request_id: string;
    };
    /** @description One of the counties the ZIP spans, with its rate */
    CandidateCounty: {
      /** @description Canonical county name */
      county: string;
      /** @description 5-digit county FIPS code */
      fips: string;
      /** @description Total statutory decimal rate (0.08 means 8.00%) */
      combined_rate: number;
      components: components["schemas"]["RateComponents"];
      /** @description Effective date of the active rate; null: in effect, start unknown */
      effective_from: string | null;
      transit_district_possible: boolean;
      transit_district: components["schemas"]["TransitDistrict"] | null;
      has_upcoming_change: boolean;
      upcoming: components["schemas"]["Upcoming"] | null;
      /** @description Share of the ZIP's land in this county, per the Census ZCTA table; null for a ZIP placed by its post office, or a county only the state's boundary file names for the ZIP */
      land_area_share: number | null;
    };
    /** @description The combined rate's parts: state, county permissive and transit levy */
    RateComponents: {
      /** @description State baseline rate, 0.0575 */
      state: number;
      /** @description County permissive rate */
      county_permissive: number;
      /** @description Transit authority levy included in combined_rate; 0 where none applies */
      transit_authority: number;
    };
    /** @description The transit district of a county that one splits (present only in such counties) */
    TransitDistrict: {
      /** @description COTA or TARTA */
      authority: string;
      name: string;
      /** @description The part of the county the district covers */
      area: string;
      /** @description Combined rate inside the district */
      combined_rate_inside: number;
      /** @enum {string} */
      status: "inside" | "outside" | "unknown";
      note: string;
    };
    /** @description The next enacted change after date_evaluated */
    Upcoming: {
      effective_date: string;
      combined_rate: number;
      components: components["schemas"]["RateComponents"];
      /** @description While the transit district is unsettled: the rate inside it from that date */
      combined_rate_inside?: number;
    };
    /** @description One county in the list of all 88: its rate today (or on `date`) and any change ahead */
    CountyItem: {
      county: string;
      slug: string;
      fips: string;
      combined_rate: number;
      components: {
        state: number;
        county: number;
        transit: number;
      };
      effective_from: string | null;
      transit_district_possible: boolean;
      transit_district: components["schemas"]["TransitDistrict"] | null;
      has_upcoming_change: boolean;
      upcoming: components["schemas"]["Upcoming"] | null;
      source: string;
    };
    /** @description All 88 counties with their rates on one date */
    CountiesResponse: {
      total: number;
      state_base_rate: number;
      last_reconciled: string;
      /** @description Present only when date_evaluated is after the date the rates are confirmed through: a change the state enacted for that date may not be in the answer yet. Absent: the rates for date_evaluated are confirmed. */
      beyond_confirmed?: {
        /** @description The last day whose rates a source confirmed against the state's rate file */
        confirmed_through: string;
        /** @description Days from confirmed_through to date_evaluated */
        days_beyond: number;
        message: string;
      };
      statutory_authority: string;
      date_evaluated: string;
      counties: components["schemas"]["CountyItem"][];
    };
    /** @description RFC 9457 problem details, sent as application/problem+json */
    ProblemDetails: {
      /**
       * Format: uri
       * @description ERRORS_URL followed by the problem's slug
       */
      type: string;
      title: string;
      status: number;
      detail: string;
      request_id: string;
      /** @description The bad parameters or fields, each with its reason: the first 20, with the count in `detail` when there are more */
      invalid_params?: {
          name: string;
          reason: string;
        }[];
    };
    /** @description A webhook endpoint: where events go, which ones, and its state (the signing secret is shown only when created or rotated) */
    WebhookRecord: {
      id: string;
      url: string;
      /** @description Only in the answers that issue it: registration and rotation */
      secret?: string;
      events: string[];
      /** @enum {string} */
      status: "active" | "disabled";
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      disabled_reason?: string;
      /**
       * Format: date-time
       * @description While a rotated-out secret still signs alongside the new one
       */
      previous_secret_expires_at?: string;
    };
    WebhookCreate: {
      url: string;
      events: string[];
    };
    WebhookUpdate: {
      url?: string;
      events?: string[];
      /** @enum {string} */
      status?: "active" | "disabled";
    };
    WebhookRecover: {
      /** Format: date-time */
      since: string;
    };
    CertificateCreate: {
      customer_id: string;
      customer_name: string;
      exempt_reason: string;
      expires_on: string;
    };
    /** @description An exemption certificate, registered for expiry reminders */
    CertificateRecord: {
      id: string;
      customer_id: string;
      customer_name: string;
      exempt_reason: string;
      expires_on: string;
      /** Format: date-time */
      created_at: string;
    };
    /** @description An event as delivered: its id, type, time and data */
    EventEnvelope: {
      /** @description The same on every attempt: the X-Webhook-ID receivers de-duplicate by */
      id: string;
      /** @enum {string} */
      type: "rate.changed" | "rate.announced" | "certificate.expiring" | "filing.due" | "webhook.test";
      /** Format: date-time */
      created_at: string;
      /** @description The event's data; its fields per type are listed in docs/guides/webhooks-and-jobs.md, "Event data" */
      data: {
        [key: string]: unknown;
      };
    };
    BatchAnswer: {
      total: number;
      failed: number;
      /** @description In input order */
      results: ({
          /** @description The caller's id for the lookup, when it sent one */
          id: string | null;
          /** @description The status a single lookup would have had */
          status: number;
          body: components["schemas"]["RateRecord"] | components["schemas"]["AmbiguousResponse"] | components["schemas"]["ProblemDetails"];
        })[];
      /** @description The fields of the lookups Buckeye does not read (such as an export's name), at most 1,000: ignored, not refused, and listed here so a misspelt field is never silent */
      ignored_fields: string[];
      request_id: string;
    };
    /** @description An asynchronous batch job */
    BatchJob: {
      id: string;
      /** @enum {string} */
      status: "queued" | "running" | "completed";
      /**
       * @description As uploaded: csv (with a header row), ndjson, or finder (Ohio's Finder layout, uploaded with ?format=finder)
       * @enum {string}
       */
      format: "csv" | "ndjson" | "finder";
      /**
       * @description rates: rate lookups (POST /api/v1/batches); orders: sales whose tax is calculated (POST /api/v1/tax/batches)
       * @enum {string}
       */
      kind: "rates" | "orders";
      /** @description An orders job uploaded with record=true: the ledger its sales are recorded into, the uploading key's environment; null: calculated only (and every rates job) */
      ledger: ("test" | "live") | null;
      /** @description The upload's columns (CSV: every column of its header that is not read, the other address side's of an export included) or fields (NDJSON: at most 1,000 names, in order of first sight) Buckeye does not read, such as an export's name or phone: ignored, not refused, and listed here so a misspelt column is never silent */
      ignored_columns: string[];
      total: number;
      done: number;
      failed: number;
      /** Format: date-time */
      created_at: string;
      started_at: string | null;
      completed_at: string | null;
      /** @description What a running job waits for, so a job at done: 0 during an outage says why; null when it waits for nothing (always, once completed). Every instance shows the same: it is stored on the job by the runner that waits, and cleared when its work goes on */
      waiting_for: {
        /**
         * @description geocoder-retry: a request to the Census geocoder for rows the state's boundary file could not place failed, and is tried again at retry_at
         * @enum {string}
         */
        reason: "geocoder-retry";
        /** @description What is waited for, in words: why the request failed, which retry comes next, and what becomes of the rows if it fails too */
        detail: string;
        /**
         * Format: date-time
         * @description When the request is tried again; once past, the retry is in flight
         */
        retry_at: string;
      } | null;
      links: {
        self: string;
        results: string;
      };
      request_id: string;
    };
    /** @description One event's delivery to one webhook, with every attempt */
    DeliveryRecord: {
      id: string;
      /** @description The X-Webhook-ID of every attempt */
      event_id: string;
      event_type: string;
      /** @enum {string} */
      status: "pending" | "delivered" | "failed" | "cancelled";
      attempt_count: number;
      next_attempt_at: string | null;
      /** Format: date-time */
      created_at: string;
      delivered_at: string | null;
      attempts: ({
          number: number;
          /** Format: date-time */
          attempted_at: string;
          status_code: number | null;
          latency_ms: number;
          /** @enum {string} */
          outcome: "delivered" | "retry" | "failed" | "gone";
          error: string | null;
        })[];
    };
    /** @description One run of reconciliation against the state's rate file */
    Reconciliation: {
      id: string;
      /** @enum {string} */
      status: "succeeded" | "failed";
      source: string;
      file_name: string | null;
      reconciled_on: string;
      rows: number;
      periods_recorded: number;
      events_emitted: number;
      discrepancies: ({
          fips: string | null;
          county: string | null;
          component: ("county" | "transit" | "district" | "state") | null;
          code: string;
          date: string | null;
          file_rate: string | null;
          our_rate: string | null;
          reason: string;
        })[];
      error: string | null;
      /** Format: date-time */
      started_at: string;
      /** Format: date-time */
      finished_at: string;
    };
    /** @description A filing period's worksheet in the shape of Ohio's Universal Sales Tax Return (UST 1) */
    ReturnWorksheet: {
      /** @constant */
      form: "UST 1";
      organization_id: string;
      /**
       * @description The ledger read: the calling key's environment
       * @enum {string}
       */
      ledger: "live" | "test";
      /** @description 2026-11, or 2026-H1 / 2026-H2 */
      period: string;
      /** @enum {string} */
      filing_frequency: "monthly" | "semiannual";
      /** Format: date */
      period_start: string;
      /** Format: date */
      period_end: string;
      /**
       * Format: date
       * @description The 23rd of the month after the period (R.C. 5739.12)
       */
      due_date: string;
      /**
       * @description open while the period runs: its figures may still change
       * @enum {string}
       */
      period_status: "open" | "closed";
      /**
       * @description Every amount exact to the cent; the return is not rounded to whole dollars
       * @constant
       */
      rounding: "cents";
      /** @description One line per county (or COTA district part) with records in the period, by county name */
      counties: ({
          county: string;
          county_fips: string;
          /** @description The Department of Taxation's two-digit code for the line: the county's number (01–88), or a COTA district part's (Delaware 96, Fairfield 93, Licking 94, Union 98) */
          reporting_code: string;
          /** @description "COTA district" for a district's part of a county it splits; null for the county or the rest of it */
          part: string | null;
          /** @description US dollars with two decimals, from integer cents; negative where refunds exceed sales */
          gross_sales: string;
          /** @description US dollars with two decimals, from integer cents; negative where refunds exceed sales */
          exempt_sales: string;
          /** @description gross_sales − exempt_sales */
          net_taxable_sales: string;
          /** @description The tax recorded on the line's sales, the transit authority's share included */
          tax_liability: string;
          /** @description The line's tax by the jurisdiction it is owed to; they add up to tax_liability */
          tax_by_jurisdiction: {
            /** @description US dollars with two decimals, from integer cents; negative where refunds exceed sales */
            state: string;
            /** @description US dollars with two decimals, from integer cents; negative where refunds exceed sales */
            county: string;
            /** @description US dollars with two decimals, from integer cents; negative where refunds exceed sales */
            transit: string;
          };
          /** @description Ledger records in the line: sales, refunds and voids */
          records: number;
        })[];
      /** @description The form's lines 1 to 9; line 4 and line 8 are 0.00 (no clerk-of-courts sales are recorded; the additional charge is for a late return) */
      lines: {
          line: number;
          label: string;
          /** @description US dollars with two decimals, from integer cents; negative where refunds exceed sales */
          amount: string;
        }[];
      /** @description The prompt-payment discount (line 7): the rate in force for the due date, its source, its condition and its amount */
      discount: {
        rate: string;
        /** Format: date */
        effective_from: string;
        source: string;
        applies_when: string;
        /** @description US dollars with two decimals, from integer cents; negative where refunds exceed sales */
        amount: string;
      };
      /** @description Line 9: line 6 − line 7 + line 8 */
      net_amount_due: string;
      /** Format: date-time */
      generated_at: string;
    };
    /** @description A sale: its date, places, lines and charges */
    Sale: {
      /** @description The date of the sale, YYYY-MM-DD; default: today in Ohio */
      date?: string;
      /** @constant */
      currency?: "USD";
      /** @description The buyer, as the organization's exemption certificates name it */
      customer_id?: string;
      /** @description Where the buyer receives the goods */
      ship_to?: {
        county?: string;
        zip?: string;
        address?: string;
        lat?: string;
        lon?: string;
      };
      /** @description The organization's location where the buyer picks the goods up */
      pickup_location_id?: string;
      /** @description The organization's Ohio location that received the order */
      order_location_id?: string;
      lines: {
          /** @description The line's id, unique in the sale */
          id: string;
          /** @description Default 1 */
          quantity?: number;
          /** @description The price of one; the line's amount is quantity times it. Send unit_price or amount */
          unit_price?: string;
          /** @description The line's whole amount, instead of unit_price */
          amount?: string;
          /** @description Taken off the line's amount before tax (R.C. 5739.01(H)(2): a discount is not part of the price) */
          discount?: string;
          /** @description true: the line is exempt, for the merchant's own reason */
          exempt?: boolean;
          /** @description Why the line is exempt, shown in the answer */
          exempt_reason?: string;
          /** @description A product category whose Ohio answer the Revised Code states (data/SOURCES.md): taxable or exempt by it */
          category?: string;
        }[];
      /** @description Shipping charges: part of the price (R.C. 5739.01(H)(1)) */
      shipping?: string;
      /** @description Handling charges: part of the price (R.C. 5739.01(H)(1)) */
      handling?: string;
    };
    /** @description A sale to record under the merchant's order id */
    SaleToRecord: {
      /** @description The merchant's own id of the order: the same id and body record one transaction */
      order_id: string;
      /** @description The date of the sale, YYYY-MM-DD; default: today in Ohio */
      date?: string;
      /** @constant */
      currency?: "USD";
      /** @description The buyer, as the organization's exemption certificates name it */
      customer_id?: string;
      /** @description Where the buyer receives the goods */
      ship_to?: {
        county?: string;
        zip?: string;
        address?: string;
        lat?: string;
        lon?: string;
      };
      /** @description The organization's location where the buyer picks the goods up */
      pickup_location_id?: string;
      /** @description The organization's Ohio location that received the order */
      order_location_id?: string;
      lines: {
          /** @description The line's id, unique in the sale */
          id: string;
          /** @description Default 1 */
          quantity?: number;
          /** @description The price of one; the line's amount is quantity times it. Send unit_price or amount */
          unit_price?: string;
          /** @description The line's whole amount, instead of unit_price */
          amount?: string;
          /** @description Taken off the line's amount before tax (R.C. 5739.01(H)(2): a discount is not part of the price) */
          discount?: string;
          /** @description true: the line is exempt, for the merchant's own reason */
          exempt?: boolean;
          /** @description Why the line is exempt, shown in the answer */
          exempt_reason?: string;
          /** @description A product category whose Ohio answer the Revised Code states (data/SOURCES.md): taxable or exempt by it */
          category?: string;
        }[];
      /** @description Shipping charges: part of the price (R.C. 5739.01(H)(1)) */
      shipping?: string;
      /** @description Handling charges: part of the price (R.C. 5739.01(H)(1)) */
      handling?: string;
    };
    /** @description The tax on one sale, every jurisdiction separately, with what it was computed from */
    TaxAnswer: {
      /** @constant */
      settled: true;
      date: string;
      /** @constant */
      currency: "USD";
      sourcing: {
        /** @enum {string} */
        rule: "pickup" | "origin" | "destination";
        statute: string;
        reason: string;
        /** @description The organization's location the sale is sourced to; null when sourced to ship_to */
        location_id: string | null;
      };
      location: {
        county: string;
        fips: string;
        transit_district: ({
          authority: string;
          /** @enum {string} */
          status: "inside" | "outside";
        }) | null;
        /**
         * @description How the location was settled: county_param; zip_unambiguous: a ZIP in one county, per the state's SST boundary file when it covers the ZIP (then boundary_record cites its record), else per the Census ZCTA table; address_range / zip4_range: an address range (A) or ZIP+4 range (4) record of the state's SST boundary file (see boundary_record); address_geocoding: the Census Geocoder and our polygons; zip_fallback; coordinates
         * @enum {string}
         */
        resolved_by: "county_param" | "zip_unambiguous" | "address_range" | "zip4_range" | "address_geocoding" | "zip_fallback" | "coordinates";
        boundary_record: ({
          /** @description The boundary file version, from its name, e.g. OHB2026Q4SEP17; a SYNTHETIC file's (made-up test data, never the state's) ends in -SYNTHETIC */
          version: string;
          /**
           * @description A: address range; 4: ZIP+4 range; Z: whole-ZIP range (a ZIP lookup citing the ZIP's records)
           * @enum {string}
           */
          record_type: "4" | "A" | "Z";
          /** @description The record's line in the imported file */
          line: number;
          /** @description The record's begin date */
          effective_from: string;
          /** @description The record's end date, the last day it applies; null: open */
          effective_to: string | null;
          county_fips: string;
          /** @description The SST code of the record's transit district; null: none */
          transit_code: string | null;
        }) | null;
      };
      rounding: {
        /** @enum {string} */
        basis: "item" | "invoice";
        rule: string;
      };
      /** @description The customer's exemption certificate valid on the sale's date, which makes every line exempt; null when none */
      exemption: {
        certificate_id: string;
        customer_id: string;
        exempt_reason: string;
        expires_on: string;
      } | null;
      lines: ({
          id: string;
          quantity: number;
          unit_price: string | null;
          /** @description Quantity times unit price, or the amount sent */
          gross: string;
          /** @description US dollars, two decimal places */
          discount: string;
          /** @description gross − discount: the line's price */
          net: string;
          /** @description US dollars, two decimal places */
          exempt: string;
          /** @description US dollars, two decimal places */
          taxable: string;
          /** @description Why the line is exempt: a certificate, a statute, or the merchant's reason; null when taxable */
          exempt_reason: string | null;
          /** @description On an item basis, the line's own rounded tax per jurisdiction; null on an invoice basis */
          taxes: (({
              /** @enum {string} */
              jurisdiction: "state" | "county" | "transit";
              /** @description Ohio, the county, or the transit authority; none when no transit levy applies */
              name: string;
              /** @description A decimal rate: 0.0575 is 5.75 % */
              rate: string;
              /** @description US dollars, two decimal places */
              taxable: string;
              /** @description The tax before rounding, in dollars, every digit kept */
              unrounded: string;
              /** @description Rounded by the state's rule, on the basis the answer names */
              tax: string;
            })[]) | null;
        })[];
      /** @description Shipping and handling together */
      delivery: {
        /** @description US dollars, two decimal places */
        amount: string;
        /** @description US dollars, two decimal places */
        taxable: string;
        /** @description US dollars, two decimal places */
        exempt: string;
        taxes: (({
            /** @enum {string} */
            jurisdiction: "state" | "county" | "transit";
            /** @description Ohio, the county, or the transit authority; none when no transit levy applies */
            name: string;
            /** @description A decimal rate: 0.0575 is 5.75 % */
            rate: string;
            /** @description US dollars, two decimal places */
            taxable: string;
            /** @description The tax before rounding, in dollars, every digit kept */
            unrounded: string;
            /** @description Rounded by the state's rule, on the basis the answer names */
            tax: string;
          })[]) | null;
      };
      jurisdictions: ({
          /** @enum {string} */
          jurisdiction: "state" | "county" | "transit";
          /** @description Ohio, the county, or the transit authority; none when no transit levy applies */
          name: string;
          /** @description A decimal rate: 0.0575 is 5.75 % */
          rate: string;
          /** @description US dollars, two decimal places */
          taxable: string;
          /** @description The tax before rounding, in dollars, every digit kept */
          unrounded: string;
          /** @description Rounded by the state's rule, on the basis the answer names */
          tax: string;
        })[];
      totals: {
        /** @description US dollars, two decimal places */
        gross: string;
        /** @description US dollars, two decimal places */
        exempt: string;
        /** @description US dollars, two decimal places */
        taxable: string;
        /** @description US dollars, two decimal places */
        tax: string;
        /** @description The tax before rounding, in dollars, every digit kept */
        unrounded: string;
      };
      computed_from: {
        /** @description The state's rate file the shipped rates come from, and the reconciliation laid over them (+id:periods) when there is one */
        rate_data_version: string;
        /** @description The state's boundary file whose record placed the address; null when none did */
        boundary_version: string | null;
        /**
         * @description How the location was settled: county_param; zip_unambiguous: a ZIP in one county, per the state's SST boundary file when it covers the ZIP (then boundary_record cites its record), else per the Census ZCTA table; address_range / zip4_range: an address range (A) or ZIP+4 range (4) record of the state's SST boundary file (see boundary_record); address_geocoding: the Census Geocoder and our polygons; zip_fallback; coordinates
         * @enum {string}
         */
        resolved_by: "county_param" | "zip_unambiguous" | "address_range" | "zip4_range" | "address_geocoding" | "zip_fallback" | "coordinates";
        last_reconciled: string;
      };
      request_id: string;
    };
    /** @description A place that rates cannot settle (a ZIP that spans counties, a county a transit district splits): the candidates, and no tax until an address settles it */
    TaxUnsettled: {
      /** @constant */
      settled: false;
      date: string;
      message: string;
      candidates: ({
          county: string;
          fips: string;
          transit_district: ("inside" | "outside") | null;
          /** @description A decimal rate: 0.0575 is 5.75 % */
          combined_rate: string;
        })[];
      request_id: string;
    };
    /** @description The organization's tax settings */
    TaxSettings: {
      /**
       * @description Round each line (item) or the invoice's total (invoice), per jurisdiction
       * @enum {string}
       */
      rounding_basis: "item" | "invoice";
    };
    /** @description One of the organization's places of business */
    LocationCreate: {
      /** @description What the organization calls it: "Main Street store" */
      name: string;
      /** @description A place in any form a rate lookup takes: a county, a ZIP (or ZIP+4), a street address, or lat with lon */
      place: {
        county?: string;
        zip?: string;
        address?: string;
        lat?: string;
        lon?: string;
      };
    };
    /** @description One of the organization's places of business */
    LocationRecord: {
      id: string;
      name: string;
      place: {
        [key: string]: string;
      };
      created_at: string;
    };
    /** @description One record of the tax ledger */
    TransactionRecord: {
      id: string;
      /** @enum {string} */
      kind: "sale" | "refund" | "void";
      /** @description The merchant's id: a sale's order_id, a refund's refund_id, a void's sale order_id */
      reference: string;
      /** @description For a refund or void: the sale it reduces */
      sale_id: string | null;
      /**
       * @description The environment of the key that recorded it
       * @enum {string}
       */
      ledger: "live" | "test";
      date: string;
      county_fips: string;
      transit_district: string | null;
      /** @description A sale's positive, a refund's or void's negative */
      amounts: {
        /** @description US dollars, two decimal places */
        gross: string;
        /** @description US dollars, two decimal places */
        exempt: string;
        /** @description US dollars, two decimal places */
        taxable: string;
        /** @description US dollars, two decimal places */
        tax: string;
        /** @description US dollars, two decimal places */
        state_tax: string;
        /** @description US dollars, two decimal places */
        county_tax: string;
        /** @description US dollars, two decimal places */
        transit_tax: string;
      };
      /** @description What the record was computed from: the sale's answer (rates, versions, resolution), or the refund's lines */
      calculation: {
        [key: string]: unknown;
      };
      created_at: string;
    };
    /** @description A refund of part or all of a recorded sale */
    RefundCreate: {
      /** @description The merchant's own id of the refund: the same id and body record one refund */
      refund_id: string;
      /** @description The date of the refund; default: today in Ohio. It reduces the return of its own period */
      date?: string;
      lines?: {
          id: string;
          /** @description How much of the line's price is refunded */
          amount: string;
        }[];
      /** @description How much of the shipping and handling is refunded */
      delivery?: string;
    };
    /** @description A void: all that is left of the sale taken back */
    VoidCreate: {
      /** @description The date of the void; default: today in Ohio */
      date?: string;
    };
    /** @description A recorded sale computed again: from the versions it cites, and from today's data */
    Replay: {
      transaction_id: string;
      as_recorded: {
        computed_from: {
          [key: string]: unknown;
        };
        amounts: {
          [key: string]: string;
        };
        /** @description The record's cited rates and basis, computed again, give the recorded amounts */
        matches_record: boolean;
      };
      /** @description The same sale, on its own date, placed and rated with today's data */
      today: {
        computed_from: {
          [key: string]: unknown;
        } | null;
        amounts: {
          [key: string]: string;
        } | null;
        /** @description Why today's data gives no amount (the place no longer resolves, a location was deleted); null otherwise */
        problem: string | null;
      };
      /** @description Today's data gives another amount than the record */
      differs: boolean;
      differences: {
          field: string;
          recorded: string;
          today: string;
        }[];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description This request's id, also in the body's request_id and in the access log: quote it when reporting a problem */
    "X-Request-Id": string;
    /** @description Requests per second this API key may make; on a 429 organization-rate-limit-exceeded, those its organization may make across all its keys */
    "RateLimit-Limit": number;
    /** @description Requests this key may still make now, before it has to wait (on organization-rate-limit-exceeded: its organization, so 0) */
    "RateLimit-Remaining": number;
    /** @description Seconds until the key's allowance is full again (on organization-rate-limit-exceeded: its organization's) */
    "RateLimit-Reset": number;
    /** @description Seconds to wait before retrying */
    "Retry-After": number;
    /** @description The path of the resource this request created */
    Location: string;
    /** @description The Bearer challenge (RFC 6750): `Bearer realm="buckeye"`, with `error="invalid_token"` for a key that was refused */
    "WWW-Authenticate": string;
    /** @description A strong validator of this representation (one per content encoding): send it back as If-None-Match to get an empty 304 while the document is unchanged */
    ETag: string;
    /** @description `no-cache`: a client may keep the document but asks again, with If-None-Match, before using it */
    "Cache-Control": string;
    /** @description `accept-encoding`: the document is sent brotli- or gzip-compressed when the request accepts it */
    Vary: string;
    /** @description `nosniff` */
    "X-Content-Type-Options": string;
  };
  pathItems: never;
}

export type $defs = Record<string, never>;

export type external = Record<string, never>;

export interface operations {

  /**
   * The statutory rate for a county, ZIP, street address or point, at a date
   * @description Send `county`, `zip`, `address`, or `lat` with `lon`; when several are sent, this precedence applies. `address` wins: it is geocoded, and a `zip` sent with it is kept for the fallback when the address cannot be geocoded. Otherwise `lat` with `lon`: the point decides. A `county` sent with an address or a point is not used. Otherwise `county`: a `zip` sent with it must reach into that county (else 400 parameter-conflict), and the county answers. Otherwise `zip`: a ZIP that spans counties answers with the ambiguous response. Sending none of them is a 400, and so is an unknown or repeated parameter.
   */
  getRate: {
    parameters: {
      query?: {
        /** @description County name or slug, any case: `franklin`, `Van Wert`, `van-wert` */
        county?: string;
        /** @description 5-digit ZIP code, or a ZIP+4 (43081-1234 or 430811234) that the boundary file's ZIP+4 ranges settle exactly (resolved_by zip4_range); a ZIP that spans counties answers with the ambiguous response */
        zip?: string;
        /** @description Street address, ideally ending with its ZIP so the ZIP fallback is available */
        address?: string;
        /** @description Latitude in decimal degrees (at most 15 decimal places), sent with lon */
        lat?: string;
        /** @description Longitude in decimal degrees (at most 15 decimal places), sent with lat */
        lon?: string;
        /** @description The date of the sale, YYYY-MM-DD (from 2018-01-01); default: today in Ohio */
        date?: string;
      };
    };
    responses: {
      /** @description An exact match, or the ambiguous response for a ZIP spanning counties */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": components["schemas"]["RateRecord"] | components["schemas"]["AmbiguousResponse"];
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The geocoder or the boundary data is unavailable */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For geocoder-unavailable: seconds until the geocoder is tried again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Up to 1,000 lookups answered inline, in input order, counted as one request
   * @description Each lookup is answered as GET /api/v1/rates would answer it, with its status beside its body; one bad lookup never fails the others. Address lookups are geocoded together, waiting at most GEOCODER_INLINE_BATCH_TIMEOUT_MS (30 s by default) for the geocoder: lookups it has not answered by then are answered as its outage is (their ZIP with a note, or 503 geocoder-unavailable in the item), the list still with 200. Larger files go to POST /api/v1/batches. A body nested deeper than 5 levels (the body, its list and a lookup's 3) is a 400, refused as it streams.
   */
  getRatesBatch: {
    requestBody: {
      content: {
        "application/json": {
          lookups: ({
              /** @description Yours, up to 100 characters; its result repeats it */
              id?: string | number;
              /** @description County name or slug, any case, up to 64 characters */
              county?: string;
              /** @description 5-digit ZIP code, or a ZIP+4 (43081-1234 or 430811234) */
              zip?: string | number;
              /** @description Street address, up to 300 characters, ideally ending with its ZIP */
              address?: string;
              /** @description Decimal degrees, sent with lon */
              lat?: number | string;
              /** @description Decimal degrees, sent with lat */
              lon?: number | string;
              /** @description The date of the sale, YYYY-MM-DD (from 2018-01-01); default: today in Ohio */
              date?: string;
              /** @description The street line, as exports name it (or address1); with any of these split columns, address is read as the street line too. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              street?: string | number;
              /** @description The street line. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              address1?: string | number;
              /** @description The unit (or street2, unit, suite), written after the street line. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              address2?: string | number;
              /** @description The unit. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              street2?: string | number;
              /** @description The unit. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              unit?: string | number;
              /** @description The unit. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              suite?: string | number;
              /** @description The city. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              city?: string | number;
              /** @description The state. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              state?: string | number;
              /** @description The ZIP, as zip. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              postal_code?: string | number;
              /** @description The +4 of the ZIP (or plus4). Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              zip4?: string | number;
              /** @description The +4 of the ZIP. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item */
              plus4?: string | number;
              /** @description A row in Ohio's Finder batch layout, its fields in order (invoice number, address, suite, city, state, ZIP, ZIP+4, as-of date MM/DD/YYYY, optional taxable amount), held to the layout's rules; sent alone, without the other fields. Its invoice number is the result's id */
              finder?: string[];
            })[];
        };
      };
    };
    responses: {
      /** @description One result per lookup, in input order */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": components["schemas"]["BatchAnswer"];
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Starts a batch job of up to 100,000 rows (CSV, NDJSON, or Ohio's Finder layout)
   * @description CSV with a header row naming the columns id, county, zip, address, lat, lon and date, or NDJSON with one lookup object per line. Address columns as exports name them are read too (street, address1, address2, street2, unit, suite, city, state, postal_code, zip4, plus4; a header in any case, spaces or hyphens for underscores): they are written into one address line, and address is then its street line. Exports' own headers are read too: Shopify's, WooCommerce's, BigCommerce's, Magento's, Square's, Amazon Seller Central's (tab-separated), QuickBooks' and Salesforce's, and common spellings (Address Line 1, AddressLine1, Street Address, Apt, Postal Code, ZIP Code), matched by their letters and digits in any case (the list: docs/guides/address-resolution.md, "Exports as platforms write them"). Where an export carries a shipping and a billing address, the shipping address is read unless address_side=billing. Any other header is read through the columns parameter. A file in which no column is read as an address part (address, a street line, unit, city, state, ZIP, +4; or lat with lon) while some column looks like one (its name holds address, street, addr, zip, postal, postcode, apt or line N) is refused with 400 before anything is stored, naming those columns, what was read and the columns mapping to send. Other columns (an export's name, phone, …) are ignored, not refused: the job lists every one as ignored_columns, and a row left with nothing to look up fails with a problem naming them; a row answered while a column that looks like an address part held a value that was not read carries unread_columns in the results. A file that is not UTF-8 is refused with 400 naming the line, row and byte offset. With ?format=finder the body is a headerless CSV in Ohio's Finder batch layout (invoice number, address, suite, city, state, ZIP, ZIP+4, as-of date MM/DD/YYYY, optional taxable amount), sent as text/csv; each row is checked against the layout's rules (field lengths, state OH, ZIP 5 digits, ZIP+4 4 digits, dates from 01/01/2004 and not in the future) and fails alone if it breaks one; a date before 2018-01-01 fails with 422 date-out-of-range. The job runs in the background; poll the Location until its status is completed, then fetch its results. Refused as the upload streams, before anything is stored: a line (an NDJSON line, or a CSV record with its quoted line breaks) longer than UPLOAD_MAX_LINE_BYTES (64 KiB by default) is a 413 batch-line-too-long, an NDJSON line nested deeper than 3 levels a 400, and row 100,001 a 413 batch-too-large; each names where. A field longer than its documented length, or holding a control character, fails its own row. Refused before the body is read: an upload past the organization's caps on jobs (counting its uploads being received) or on bytes being uploaded at once (429), or past the server's bytes being uploaded at once (503). Send Content-Length: without it an upload counts as 64 MiB.
   */
  createBatch: {
    parameters: {
      query?: {
        /** @description finder: the body is a headerless CSV in Ohio's Finder batch layout (Content-Type text/csv); absent: CSV with a header row, or NDJSON, by Content-Type */
        format?: "finder";
        /** @description For a CSV with a header row: which header each part is read from, as NAME=HEADER pairs separated by commas (URL-encoded), e.g. street=Addr 1,zip=Zip Cd. NAME is one of id, address, street, address2, city, state, zip, zip4, county, lat, lon, date; HEADER is matched by its letters and digits, in any case. A mapped column wins over any other column for that part. A pair that cannot be read, an unknown name, a name twice, or a header the file does not have is a 400 */
        columns?: string;
        /** @description For a CSV export that carries a shipping and a billing address: which is read. Absent: shipping (where the buyer receives the goods); an export with billing columns only is read from them */
        address_side?: "shipping" | "billing";
      };
    };
    requestBody: {
      content: {
        "text/csv": string;
        "application/x-ndjson": string;
      };
    };
    responses: {
      /** @description The job; Location is where to poll it */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": components["schemas"]["BatchJob"];
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description organization-in-trial: the organization was made by open sign-up and an operator has not verified it yet; batch jobs start once it is */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description batch-jobs-stored: the organization keeps as many jobs as it may (BATCH_JOBS_STORED_PER_ORG, completed ones included); delete some with DELETE /api/v1/batches/{id} */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second; or batch-jobs-in-flight: the organization has as many jobs queued, running or being uploaded as it may (BATCH_JOBS_IN_FLIGHT_PER_ORG); or batch-uploads-in-flight: its uploads being received, with this one's Content-Length (64 MiB without one), would pass BATCH_UPLOAD_BYTES_PER_ORG. Answered before the body is read; Retry-After says when to try again */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description batch-uploads-busy: the uploads this server is receiving from every organization, with this one's Content-Length (64 MiB without one), would pass BATCH_UPLOAD_BYTES_PER_PROCESS. Answered before the body is read; Retry-After says when to try again */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * A batch job's state and progress
   * @description Only the organization that submitted a job sees it; to any other it does not exist (404).
   */
  getBatch: {
    parameters: {
      path: {
        /** @description Batch id, as returned when the job was submitted */
        id: string;
      };
    };
    responses: {
      /** @description The job */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": components["schemas"]["BatchJob"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Deletes a batch job, its rows and its results
   * @description In any state: a queued job never runs, a running one is cancelled (what its runner has in hand is not stored). Afterwards the job and its results answer 404. Completed jobs are also deleted RETAIN_BATCH_JOBS_DAYS (7 by default) after they completed; deleting them sooner frees room under BATCH_JOBS_STORED_PER_ORG. Only the organization that submitted a job can delete it; to any other it does not exist (404).
   */
  deleteBatch: {
    parameters: {
      path: {
        /** @description Batch id, as returned when the job was submitted */
        id: string;
      };
    };
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: never;
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * A finished job's results, as CSV or NDJSON, or a Finder job's results and errors files
   * @description One line per input row, in input order. ?format= or else Accept chooses the format (text/csv or application/x-ndjson); with neither, or *\/*, the results come in the format that was uploaded. A job uploaded with ?format=finder has two headerless CSV files besides: ?format=finder (its default, and what Accept: text/csv gives it), each row answered with one rate as its 9 Finder fields then county, fips, combined_rate, state_rate, county_permissive_rate, transit_authority_rate, resolved_by, effective_from, date_evaluated, note; and ?format=finder-errors, every other row as its 9 Finder fields then row, status, problem_type, problem_detail. Buckeye's CSV has a header line and the columns row, id, status, county, fips, combined_rate, state, county_permissive, transit_authority, transit_status, resolved_by, effective_from, date_evaluated, candidate_fips, lowest_combined_rate, note, problem_type, problem_detail, boundary_version, boundary_record_type, boundary_line, ambiguous, unread_columns (new columns are added at the end): ambiguous is true on a row whose ZIP spans counties and that has no single rate (status 200, candidate_fips and lowest_combined_rate in place of a rate), false otherwise. unread_columns (the last column) names, space-separated, a row's columns that look like part of an address, held a value and were not read: the row was answered from less than it was sent; blank on other rows. Each NDJSON line is {row, id, status, body}, body the rate record, ambiguous response or problem object a single lookup would have answered, and on a row that has some, unread_columns: [names]. An orders job's (POST /api/v1/tax/batches) line is one sale, in the upload's order: NDJSON {row, id, status, body}, id its order_id and status and body what POST /api/v1/tax (or, recorded, POST /api/v1/transactions) answers for it; CSV with the columns row, order_id, status, settled, date, county, fips, transit_district, gross, exempt, taxable, tax, state_tax, county_tax, transit_tax, rounding_basis, transaction_id, recorded, note, problem_type, problem_detail, problem_fields. Asking another job for a Finder file is a 400. Any other Accept is a 406. Until the job is completed the answer is a 409 with Retry-After. You have every row when the body ends cleanly and holds the job's total rows (its total, as GET /api/v1/batches/{id} shows; a CSV has a header line besides). A download cut short, because the job was deleted (DELETE, or the retention sweep) while it streamed, fails as a transfer: the connection is closed before the chunked body's end, never a clean end with fewer rows.
   */
  getBatchResults: {
    parameters: {
      query?: {
        /** @description csv or ndjson: Buckeye's results; finder or finder-errors (a job uploaded with ?format=finder only): its Finder results or errors file. Absent: by Accept */
        format?: "csv" | "ndjson" | "finder" | "finder-errors";
      };
      path: {
        /** @description Batch id, as returned when the job was submitted */
        id: string;
      };
    };
    responses: {
      /** @description One line per row, streamed */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description attachment, with a file name made of the batch id */
          "Content-Disposition": string;
        };
        content: {
          "text/csv": string;
          "application/x-ndjson": string;
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The Accept header asks for a format the answer is not available in */
      406: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * All 88 counties with their rates at a date
   * @description Filtered by the start of their name and sorted by name or by rate. Unknown or repeated parameters are refused.
   */
  listCounties: {
    parameters: {
      query?: {
        /** @description Counties whose name starts with this */
        search?: string;
        /** @description name (default), rate_asc or rate_desc */
        sort?: "name" | "rate_asc" | "rate_desc";
        /** @description The date of the sale, YYYY-MM-DD (from 2018-01-01); default: today in Ohio */
        date?: string;
      };
    };
    responses: {
      /** @description All 88 counties with their rates on one date */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": components["schemas"]["CountiesResponse"];
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * This organization's webhooks
   * @description Every webhook of the key's organization and mode, without secrets.
   */
  listWebhooks: {
    responses: {
      /** @description The list */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            total: number;
            webhooks: components["schemas"]["WebhookRecord"][];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Registers a webhook; the signing secret is shown only in this answer
   * @description The url must be https (http is accepted for test keys), and events a non-empty list of the subscribable event types. An organization has at most WEBHOOKS_PER_ORG webhooks (20 unless the operator sets it), disabled ones included: the next is a 409 webhook-limit-reached until one is deleted.
   */
  createWebhook: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["WebhookCreate"];
      };
    };
    responses: {
      /** @description The webhook and a message; the secret appears only here */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            webhook: components["schemas"]["WebhookRecord"];
            message: string;
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * One webhook
   * @description The webhook without its secret.
   */
  getWebhook: {
    parameters: {
      path: {
        /** @description Webhook id, wh_… */
        id: string;
      };
    };
    responses: {
      /** @description The webhook */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            webhook: components["schemas"]["WebhookRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Deletes a webhook
   * @description Its pending deliveries are cancelled with it.
   */
  deleteWebhook: {
    parameters: {
      path: {
        /** @description Webhook id, wh_… */
        id: string;
      };
    };
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: never;
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Changes its url, events or status
   * @description Send only the fields to change. Setting status to active re-enables a webhook that was disabled after failing deliveries.
   */
  updateWebhook: {
    parameters: {
      path: {
        /** @description Webhook id, wh_… */
        id: string;
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["WebhookUpdate"];
      };
    };
    responses: {
      /** @description The webhook */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            webhook: components["schemas"]["WebhookRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * A new signing secret
   * @description The new secret appears only in this answer. The old one keeps signing, beside the new, for 24 hours.
   */
  rotateWebhookSecret: {
    parameters: {
      path: {
        /** @description Webhook id, wh_… */
        id: string;
      };
    };
    responses: {
      /** @description The webhook and the new secret */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            webhook: components["schemas"]["WebhookRecord"];
            message: string;
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Queues a webhook.test event for this webhook alone
   * @description The event is delivered as any other, whatever events the webhook subscribes to; follow it in the deliveries.
   */
  sendWebhookTest: {
    parameters: {
      path: {
        /** @description Webhook id, wh_… */
        id: string;
      };
    };
    responses: {
      /** @description The queued event */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            event: components["schemas"]["EventEnvelope"];
            message: string;
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Recent deliveries, newest first
   * @description Each delivery with every attempt: status code, latency, outcome and error.
   */
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description How many to return, newest first */
        limit?: string;
      };
      path: {
        /** @description Webhook id, wh_… */
        id: string;
      };
    };
    responses: {
      /** @description The deliveries */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            webhook_id: string;
            deliveries: components["schemas"]["DeliveryRecord"][];
          };
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Queues a settled delivery's event again
   * @description With the same X-Webhook-ID, so receivers de-duplicate it, and a fresh retry schedule.
   */
  redeliverWebhookDelivery: {
    parameters: {
      path: {
        /** @description Webhook id, wh_… */
        id: string;
        /** @description Delivery id, dlv_… */
        delivery_id: string;
      };
    };
    responses: {
      /** @description The new delivery */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            delivery: components["schemas"]["DeliveryRecord"];
            message: string;
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Queues again the events this webhook missed since a time
   * @description Oldest first, up to 1000 events per call that this webhook never received; call again while remaining is above 0.
   */
  recoverWebhookEvents: {
    parameters: {
      path: {
        /** @description Webhook id, wh_… */
        id: string;
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["WebhookRecover"];
      };
    };
    responses: {
      /** @description How many were queued, and how many remain for another call */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            queued: number;
            remaining: number;
            message: string;
          };
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * This organization's certificates, a page at a time
   * @description The key's organization's certificates, soonest expiry first (then by id), `limit` to a page. Ask for the next page with `cursor` set to this page's `next_cursor`, until `next_cursor` is null. A certificate added or deleted between pages never makes the walk skip or repeat another.
   */
  listCertificates: {
    parameters: {
      query?: {
        /** @description Certificates per page, 1 to 200; default 50 */
        limit?: string;
        /** @description Where this page starts: the `next_cursor` of the previous page (opaque); omitted: the first page */
        cursor?: string;
      };
    };
    responses: {
      /** @description One page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            /** @description How many certificates the organization keeps, on every page */
            total: number;
            certificates: components["schemas"]["CertificateRecord"][];
            /** @description The cursor of the next page; null on the last */
            next_cursor: string | null;
          };
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Records an exemption certificate
   * @description Buckeye sends certificate.expiring events before its expiry date. An organization keeps at most CERTIFICATES_PER_ORG certificates (10,000 unless the operator sets it): the next is a 409 certificate-limit-reached until some are deleted.
   */
  createCertificate: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["CertificateCreate"];
      };
    };
    responses: {
      /** @description The certificate */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            certificate: components["schemas"]["CertificateRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * One certificate
   * @description As it was recorded.
   */
  getCertificate: {
    parameters: {
      path: {
        /** @description Certificate id */
        id: string;
      };
    };
    responses: {
      /** @description The certificate */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            certificate: components["schemas"]["CertificateRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Deletes a certificate
   * @description No reminder is sent for it afterwards.
   */
  deleteCertificate: {
    parameters: {
      path: {
        /** @description Certificate id */
        id: string;
      };
    };
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: never;
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * The reconciliation log, newest first
   * @description Each run against the state's rate file, with the discrepancies it found.
   */
  listReconciliations: {
    parameters: {
      query?: {
        /** @description How many to return, newest first */
        limit?: string;
      };
    };
    responses: {
      /** @description The runs, with their discrepancies */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            total: number;
            reconciliations: components["schemas"]["Reconciliation"][];
          };
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * The UST 1 worksheet of a filing period, by county
   * @description Sums the ledger of the calling key's environment (a test key reads the test ledger, a live key the live one) over the records dated in the period: per county with sales, gross, exempt and net taxable sales and the tax (a COTA district's part of Delaware, Fairfield, Licking or Union County on its own line, as the Department of Taxation numbers it); a refund or void counts in the period of its own date. Then the form's lines 1 to 9 with the prompt-payment discount in force for the due date. The period follows the organization's filing frequency: YYYY-MM for a monthly filer, YYYY-H1 or YYYY-H2 for a semiannual one. JSON, or CSV with ?format=csv or Accept: text/csv.
   */
  getReturn: {
    parameters: {
      query?: {
        /** @description json or csv; absent: by Accept (text/csv for CSV), JSON by default */
        format?: "json" | "csv";
      };
      path: {
        /** @description 2026-11 (monthly), or 2026-H1 / 2026-H2 (semiannual) */
        period: string;
      };
    };
    responses: {
      /** @description The worksheet */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For CSV only: attachment, with a file name made of the period and the ledger */
          "Content-Disposition"?: string;
        };
        content: {
          "application/json": components["schemas"]["ReturnWorksheet"];
          "text/csv": string;
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The Accept header asks for a format the answer is not available in */
      406: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * The tax on one sale, stored nowhere
   * @description The sale is sourced by R.C. 5739.033 (a pickup at one of the organization's locations; an order received at its Ohio location; else where the buyer receives the goods, `ship_to`, in any form a rate lookup takes), its places resolved as GET /api/v1/rates resolves them, and the tax computed for each jurisdiction separately (state, county, transit authority), carried to the third decimal and rounded by R.C. 5739.025 on the organization's item or invoice basis. A certificate of the customer's valid on the sale's date exempts its lines. Amounts are decimal strings with two places. A place rates cannot settle (a ZIP spanning counties, a county a transit district splits) answers its candidates and no tax (settled: false). docs/guides/tax-and-returns.md works examples cent by cent.
   */
  calculateTax: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["Sale"];
      };
    };
    responses: {
      /** @description The tax, or the candidates of a place not settled */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": components["schemas"]["TaxAnswer"] | components["schemas"]["TaxUnsettled"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The geocoder or the boundary data is unavailable */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For geocoder-unavailable: seconds until the geocoder is tried again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Starts a batch job of orders: each sale's tax calculated, and with record=true recorded, in the upload's order
   * @description A job like POST /api/v1/batches's (polled, downloaded and deleted at /api/v1/batches/{id}, under the same caps on jobs, rows, lines and bytes), whose rows are sales. NDJSON: one sale per line, the body POST /api/v1/tax takes, with order_id (required with record=true, as POST /api/v1/transactions requires it; otherwise it names the result row). CSV with a header row: one row per line item, order_id grouping the rows of one sale, which are contiguous. The order's columns (order_id, date, currency, customer_id, ship_to_address, ship_to_zip, ship_to_county, ship_to_lat, ship_to_lon, pickup_location_id, order_location_id, shipping, handling) may be repeated on each of its rows or given on its first; the line's (line_id, quantity, unit_price, amount, discount, exempt, exempt_reason, category) are each row's. A row without line_id is the order's nth line. Any other column is refused with 400, naming it, before anything is stored. Each sale is answered as POST /api/v1/tax answers it (its tax, the candidates of a place not settled, or the problem naming the field), or with record=true as POST /api/v1/transactions answers it, into the ledger of the key's environment (a test key's into the test ledger, a live key's into the live one): the same order_id and body answer the transaction already recorded (200), another body is that row's 409 transaction-conflict. A re-upload of the same file records nothing twice. One bad sale never fails the others. A CSV order whose rows disagree on an order field, or whose rows are apart, fails alone naming the field. Sales without a date are dated on the day the job was accepted. docs/guides/tax-and-returns.md, "Batches of orders", shows a file and its results.
   */
  createOrderBatch: {
    parameters: {
      query?: {
        /** @description true: record each sale into the ledger of the key's environment, idempotently by order_id; absent or false: calculate only, store nothing in the ledger */
        record?: "true" | "false";
      };
    };
    requestBody: {
      content: {
        "text/csv": string;
        "application/x-ndjson": string;
      };
    };
    responses: {
      /** @description The job (kind orders); Location is where to poll it */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": components["schemas"]["BatchJob"];
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description organization-in-trial: the organization was made by open sign-up and an operator has not verified it yet; batch jobs start once it is */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description batch-jobs-stored: the organization keeps as many jobs as it may (BATCH_JOBS_STORED_PER_ORG); delete some with DELETE /api/v1/batches/{id} */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second; or batch-jobs-in-flight or batch-uploads-in-flight, as for POST /api/v1/batches; Retry-After says when to try again */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description batch-uploads-busy, as for POST /api/v1/batches; Retry-After says when to try again */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * The organization's rounding basis
   * @description invoice (the default) or item: SSUTA section 324 lets the seller choose.
   */
  getTaxSettings: {
    responses: {
      /** @description The settings */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": components["schemas"]["TaxSettings"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Sets the organization's rounding basis
   * @description Applies to every sale computed afterwards; a recorded sale keeps the basis it was computed on.
   */
  putTaxSettings: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["TaxSettings"];
      };
    };
    responses: {
      /** @description The settings now */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": components["schemas"]["TaxSettings"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * The organization's locations
   * @description Oldest first.
   */
  listLocations: {
    responses: {
      /** @description The locations */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            locations: components["schemas"]["LocationRecord"][];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Records one of the organization's places of business
   * @description A store or office where it receives orders or hands goods over, placed by a county, ZIP, address or point. It must settle one county and transit district today: a ZIP spanning counties is refused (422), a place that cannot be resolved answers the rate lookup's problem.
   */
  createLocation: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["LocationCreate"];
      };
    };
    responses: {
      /** @description The location */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            location: components["schemas"]["LocationRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * One location
   * @description As it was recorded.
   */
  getLocation: {
    parameters: {
      path: {
        /** @description Location id, loc_… */
        id: string;
      };
    };
    responses: {
      /** @description The location */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            location: components["schemas"]["LocationRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Deletes a location
   * @description Sales already recorded keep what they were computed from; a sale naming it afterwards is refused.
   */
  deleteLocation: {
    parameters: {
      path: {
        /** @description Location id, loc_… */
        id: string;
      };
    };
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: never;
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * The ledger by date, a page at a time
   * @description Sales, refunds and voids dated from `from` to `to` (both included), in date order (then by id). Ask for the next page with `cursor` set to this page's `next_cursor`, until it is null.
   */
  listTransactions: {
    parameters: {
      query?: {
        /** @description The first date, YYYY-MM-DD */
        from?: string;
        /** @description The last date, YYYY-MM-DD */
        to?: string;
        /** @description Records per page, 1 to 200; default 50 */
        limit?: string;
        /** @description Where this page starts: the `next_cursor` of the previous page (opaque); omitted: the first page */
        cursor?: string;
      };
    };
    responses: {
      /** @description One page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            transactions: components["schemas"]["TransactionRecord"][];
            /** @description The cursor of the next page; null on the last */
            next_cursor: string | null;
          };
        };
      };
      /** @description Invalid or conflicting parameters */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Records a sale's tax in the ledger under the merchant's order id
   * @description Computed as POST /api/v1/tax computes it, then kept in the key's ledger (a test key's in the test ledger, a live key's in the live one). The same order_id and body answer the transaction already recorded (200); the same order_id with another body is a 409. A place that does not settle one county is refused (422 location-not-settled).
   */
  recordTransaction: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["SaleToRecord"];
      };
    };
    responses: {
      /** @description The sale an earlier request with the same id and body recorded */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            transaction: components["schemas"]["TransactionRecord"];
          };
        };
      };
      /** @description The sale, recorded by this request */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            transaction: components["schemas"]["TransactionRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The geocoder or the boundary data is unavailable */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For geocoder-unavailable: seconds until the geocoder is tried again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * One record of the ledger
   * @description With what it was computed from.
   */
  getTransaction: {
    parameters: {
      path: {
        /** @description Transaction id, txn_… */
        id: string;
      };
    };
    responses: {
      /** @description The record */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": {
            transaction: components["schemas"]["TransactionRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Records a refund of part or all of a sale
   * @description Its own record, pointing at the sale, with negative amounts dated on the refund's date in the sale's county, so it reduces the return of its own period. The tax taken back is computed at the sale's rates and basis and never passes what is left; a refund of more than is left of a line or of the delivery charges is refused (422 refund-exceeds-sale). The same refund_id and body answer the refund already recorded.
   */
  refundTransaction: {
    parameters: {
      path: {
        /** @description Transaction id, txn_… */
        id: string;
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RefundCreate"];
      };
    };
    responses: {
      /** @description The refund an earlier request with the same id and body recorded */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            transaction: components["schemas"]["TransactionRecord"];
          };
        };
      };
      /** @description The refund, recorded by this request */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            transaction: components["schemas"]["TransactionRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * Voids a sale: all that is left of it taken back
   * @description Its own record, negative, dated on the void's date. One per sale; asked again with the same body it answers the void already recorded. A sale refunded in full has nothing left to void (422).
   */
  voidTransaction: {
    parameters: {
      path: {
        /** @description Transaction id, txn_… */
        id: string;
      };
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["VoidCreate"];
      };
    };
    responses: {
      /** @description The void an earlier request with the same id and body recorded */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            transaction: components["schemas"]["TransactionRecord"];
          };
        };
      };
      /** @description The void, recorded by this request */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          Location: components["headers"]["Location"];
        };
        content: {
          "application/json": {
            transaction: components["schemas"]["TransactionRecord"];
          };
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The resource is not in a state that allows this, or the organization already keeps as many of them as it may */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          /** @description For a batch that is not finished: seconds until it is worth polling again */
          "Retry-After"?: number;
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The body was not sent with the Content-Type this operation reads */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description The input is understood but cannot be served */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * A recorded sale computed again: from what it cites, and from today's data
   * @description as_recorded computes the sale again from the rates and basis its record cites (the record keeps them, since a later reconciliation may replace the periods they came from) and says whether that gives the recorded amounts; today places and rates the same sale, on its own date, with today's boundary file and rate table; differences lists what changed. A refund or void is replayed through its sale.
   */
  replayTransaction: {
    parameters: {
      path: {
        /** @description Transaction id, txn_… */
        id: string;
      };
    };
    responses: {
      /** @description The replay */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/json": components["schemas"]["Replay"];
        };
      };
      /** @description No API key, or one that is unknown, mistyped, revoked or of a suspended organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description Not found in this organization */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
      /** @description More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
          "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
          "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/problem+json": components["schemas"]["ProblemDetails"];
        };
      };
    };
  };
  /**
   * The process is up
   * @description Liveness: answers as long as the process serves HTTP.
   */
  getHealth: {
    responses: {
      /** @description Up */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** @constant */
            status: "ok";
          };
        };
      };
    };
  };
  /**
   * Database reachable, data loaded, worker pool up
   * @description Readiness: a load balancer sends traffic only while this answers 200.
   */
  getReadiness: {
    responses: {
      /** @description Ready */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": Record<string, never>;
        };
      };
      /** @description Not ready, with the reasons */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": Record<string, never>;
        };
      };
    };
  };
  /**
   * This document
   * @description The OpenAPI 3.1 description of this API, generated from the service's own schemas.
   */
  getOpenApiDocument: {
    responses: {
      /** @description OpenAPI 3.1 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          ETag: components["headers"]["ETag"];
          "Cache-Control": components["headers"]["Cache-Control"];
          Vary: components["headers"]["Vary"];
          "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
        };
        content: {
          "application/json": Record<string, never>;
        };
      };
      /** @description Not modified: the If-None-Match sent names this document's ETag */
      304: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          ETag: components["headers"]["ETag"];
          "Cache-Control": components["headers"]["Cache-Control"];
          Vary: components["headers"]["Vary"];
          "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
        };
        content: never;
      };
    };
  };
  /**
   * The rate.changed event, as Buckeye POSTs it to a registered webhook
   * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
   */
  rateChangedEvent: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["EventEnvelope"];
      };
    };
    responses: {
      /** @description Any 2xx: delivered */
      200: {
        content: never;
      };
    };
  };
  /**
   * The rate.announced event, as Buckeye POSTs it to a registered webhook
   * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
   */
  rateAnnouncedEvent: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["EventEnvelope"];
      };
    };
    responses: {
      /** @description Any 2xx: delivered */
      200: {
        content: never;
      };
    };
  };
  /**
   * The certificate.expiring event, as Buckeye POSTs it to a registered webhook
   * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
   */
  certificateExpiringEvent: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["EventEnvelope"];
      };
    };
    responses: {
      /** @description Any 2xx: delivered */
      200: {
        content: never;
      };
    };
  };
  /**
   * The filing.due event, as Buckeye POSTs it to a registered webhook
   * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
   */
  filingDueEvent: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["EventEnvelope"];
      };
    };
    responses: {
      /** @description Any 2xx: delivered */
      200: {
        content: never;
      };
    };
  };
  /**
   * The webhook.test event, as Buckeye POSTs it to a registered webhook
   * @description Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s; anything else, or no answer in time, is retried.
   */
  webhookTestEvent: {
    requestBody: {
      content: {
        "application/json": components["schemas"]["EventEnvelope"];
      };
    };
    responses: {
      /** @description Any 2xx: delivered */
      200: {
        content: never;
      };
    };
  };
}
