/** Test support: runs `prospectdb mcp …` from source (spawned by the stdio test under tsx). */
import { run } from '../../src/cli/commands/mcp.js';

process.exitCode = await run(process.argv.slice(2));
