#!/usr/bin/env node
import { exitWhenFlushed, main } from "../dist/cli/bundle/main.js";

const code = await main(process.argv);
process.exitCode = code;
// Long-lived handles (a mock's sockets) are closed by the commands; exit once stdout and stderr are flushed.
exitWhenFlushed(code);
