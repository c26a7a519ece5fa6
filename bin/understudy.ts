#!/usr/bin/env node
/** The `understudy` command (see lib/cli): runs one command line and exits with its status. */
import { runCli } from '../lib/cli';

runCli(process.argv.slice(2), { stdin: process.stdin }).then(
  (status) => {
    process.exitCode = status;
  },
  (err: unknown) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
