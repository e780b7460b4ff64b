export * from "./answer";
export * from "./selection";
export * from "./merge";
export * from "./agreement";
export * from "./prompt";
export * from "./config";
