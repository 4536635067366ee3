// Pages read the request's language from here; server actions get it from `portalAction`, which lives in lib.
export { requestLocale } from "@/lib/adapters/portal/request-locale";
