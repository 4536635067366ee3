import { appsTexts } from "./pages/apps";
import { webhooksTexts } from "./pages/webhooks";
import { apiLogTexts } from "./pages/api-log";
import { secretTexts } from "./pages/secret";
import { consentTexts } from "./pages/consent";
import { accountTexts } from "./pages/account";
import { apiKeysTexts } from "./pages/api-keys";
import { activityTexts } from "./pages/activity";
import { membersTexts } from "./pages/members";
import { catalogTexts } from "./pages/catalog";
import { shellTexts } from "./pages/shell";
import { myListingsTexts } from "./pages/my-listings";
import { listingFormTexts } from "./pages/listing-form";
import { accessTexts } from "./pages/access";
import { moderationTexts } from "./pages/moderation";
/**
 * English texts of the portal's pages. This catalogue's shape is the page key registry
 * (`PageMessages` in page-messages.ts): page-ro.ts must hold exactly these keys with the same
 * `{placeholders}` (tests/unit/page-catalogues.test.ts).
 */
export const pageEn = {
  site: {
    name: "Listings platform",
    description: "Publish real-estate listings by API and in the portal.",
    skipToContent: "Skip to content",
    navigation: "Main navigation",
    home: "Home",
    listings: "Listings",
    apiReference: "API reference",
    language: "Language",
    /** The label of the button that switches to this catalogue's language, in that language. */
    switchTo: "English",
  },
  home: {
    intro: "Publish and manage real-estate listings through the API under {api}, or in this portal.",
    reference: "Interactive API reference",
    referenceSource: "(from {document})",
    vocabulary: "Vocabulary",
    vocabularyNote: "({endpoint}, no key needed)",
  },
  apiReference: {
    title: "API reference",
    intro: "Generated from {document}. Paste a sandbox key to send real requests from this page; the key stays in this browser tab.",
    loading: "Loading the API document…",
    loadFailed: "The API document could not be loaded: {error}",
    apiKey: "API key",
    responses: "Responses: {statuses}",
    queryString: "Query string",
    body: "Body ({contentType})",
    send: "Send {method} {path}",
    response: "Response",
  },
  listing: {
    code: "Code {code}",
    facts: "Details",
    photos: "Photos",
    photoAlt: "Photo {n} of {total}",
    features: "Amenities",
    yes: "yes",
    no: "no",
    report: {
      title: "Report this listing",
      reason: "What is wrong with it?",
      reasonHint:
        "For example: the flat is already rented, the price or the photos mislead, the address is wrong. At most 1 000 characters.",
      email: "Your e-mail address (optional)",
      emailHint: "Only if you want the moderators to be able to ask you about it.",
      submit: "Send the report",
      pending: "Sending…",
      sent: "Thank you. The moderators will look at this listing.",
    },
  },
  problem: {
    title: "{code} – problem",
    fallbackTitle: "Problem",
    intro:
      "The type address of every API problem with this code leads here: its title and detail, with each reason it can carry, in both languages.",
    reason: "reason: {reason}",
  },
  notFound: {
    title: "Page not found",
    text: "There is no page at this address, or it is no longer public.",
    home: "Back to the home page",
  },
  /** A form post from another site (a server action replayed with a foreign Origin), refused with 403. */
  crossOrigin: {
    title: "Request refused",
    text: "This form was sent from another site, so nothing was done. Open the page on this site and send the form from there.",
    home: "Back to the home page",
  },
  /** A form whose token no longer matches (posted from an older page, or for another account): nothing was done. */
  staleForm: "This page is out of date; reload it and try again.",
  access: accessTexts.en,
  shell: shellTexts.en,
  account: accountTexts.en,
  apiKeys: apiKeysTexts.en,
  activity: activityTexts.en,
  members: membersTexts.en,
  catalog: catalogTexts.en,
  apiLog: apiLogTexts.en,
  consent: consentTexts.en,
  secret: secretTexts.en,
  apps: appsTexts.en,
  webhooks: webhooksTexts.en,
  myListings: myListingsTexts.en,
  moderation: moderationTexts.en,
  listingForm: listingFormTexts.en,
};
