// Child of bench/cold-start.ts: imports one module (the Worker bundle) in a fresh process and
// prints the CPU the import took — parsing, compiling and evaluating every module the
// bundle holds, as a new isolate does before its first request. Plain JavaScript, so no
// TypeScript loader runs in the process.
const start = process.cpuUsage();
await import(process.argv[2]);
const used = process.cpuUsage(start);
process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000 })}\n`);
