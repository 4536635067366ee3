/**
 * Days a client that registered itself (RFC 7591) or that a client ID metadata document described is
 * kept while no account has connected it: anyone may register, so unused registrations must not pile
 * up. An agent that comes back later with a deleted `client_id` is told on the consent page that no
 * app has it, and registers again; a metadata document's client is simply fetched again. A client
 * that any account connected, even once, is kept.
 */
export const unconsentedClientDays = 30;
