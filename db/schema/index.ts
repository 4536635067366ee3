export * from "./accounts";
export * from "./keys";
export * from "./api-log";
export * from "./jobs";
export * from "./listings";
export * from "./events";
export * from "./mail";
export * from "./oauth";
