/**
 * English messages for parses with `zod/mini`, the tree-shakable build the browser path uses.
 * zod/mini has no messages of its own ("Invalid input" for everything); passing the English map per
 * parse gives the full build's wording without touching a page's global zod configuration.
 */
import en from "zod/v4/locales/en.js";

export const ENGLISH = { error: en().localeError };
