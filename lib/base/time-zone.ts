/**
 * The zone of the service's country: dates shown to people (portal pages, mails) and times they type
 * are on Romania's clock, whatever zone the server runs in.
 */
export const serviceTimeZone = "Europe/Bucharest";
