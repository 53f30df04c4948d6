// Preloaded (`node --import`) into a `validate-workflow-package` process by run.mjs: at exit, prints the whole
// process's CPU time (every thread, module loading included) and peak resident set to stderr, as one JSON line.
import { writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

// Threads inherit the preload; only the main thread reports, when the whole process ends.
if (isMainThread)
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeSync(2, `\nBENCH ${JSON.stringify({ cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, peakRssMb: usage.maxRSS / 1024 })}\n`);
  });
