/** The request header proxy.ts sets on every page request: the path and query being rendered, for "sign in and come back". */
export const pagePathHeader = "x-page-path";
