import { runCli } from './cli/cli.js';

// The one entry point: bin/roomcraft runs this file; everything else is chosen by arguments and configuration.
process.exitCode = await runCli(process.argv.slice(2), process.env);
