/** npm run gen: rewrites the check table in README.md from the catalogue. */
import { readFileSync, writeFileSync } from "node:fs";
import { withChecks } from "./readme-checks-lib.js";

const path = new URL("../README.md", import.meta.url);
writeFileSync(path, withChecks(readFileSync(path, "utf8")));
console.log("README.md check table updated");
