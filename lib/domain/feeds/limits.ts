/** The published limits of feed URLs (`POST /feeds`), in one place for the routes, the jobs and the documentation. */

/** Feeds per account. */
export const maxFeedsPerAccount = 10;

/** `interval_minutes`: at least a quarter of an hour, at most a week; an hour unless given. */
export const minFeedIntervalMinutes = 15;
export const maxFeedIntervalMinutes = 10_080;
export const defaultFeedIntervalMinutes = 60;

/** One pull, connection to last byte, redirects included. */
export const feedPullTimeoutMs = 60_000;

/** Redirects a pull follows (each target checked like the first), as a photo download does. */
export const feedPullMaxRedirects = 3;

/** A pull's claim older than this is taken to be a dead run's: the feed may be pulled again. */
export const feedPullClaimMinutes = 15;

/** A feed whose pulls have all failed for this long is reported to its owner, once per failing streak. */
export const feedFailingHoursBeforeReport = 24;
