export * from "./tenancy";
export * from "./carriers";
export * from "./users";
export * from "./addresses";
export * from "./consignments";
export * from "./notices";
export * from "./jobs";
export * from "./rating";
