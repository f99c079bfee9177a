import { createContext, useContext } from "react";

/** The CSP nonce of the server render; empty in the browser, where no inline script is added. */
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
