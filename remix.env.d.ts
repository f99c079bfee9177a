/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />
export {};

// loader and action types follow Single Fetch (v3_singleFetch is on)
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}
