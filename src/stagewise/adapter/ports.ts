/** The ports a stagewise toolbar scans for agents, upward from the first (§1). Kept apart: the suite and the proxy read them without loading the server. */
export const FIRST_PORT = 5746;
export const LAST_PORT = 5776;
