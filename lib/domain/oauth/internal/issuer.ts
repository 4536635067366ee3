import { config } from "@/lib/base/config";

/** The authorization server's issuer identifier (RFC 8414 §2): the app's public origin, no trailing slash. */
export const issuer = (): string => config().APP_URL.replace(/\/+$/, "");
