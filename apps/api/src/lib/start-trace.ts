/**
 * An opt-in phase trace of a start (`START_TRACE=1`): each mark prints the wall and CPU time
 * (user + system, this process, so the embedded database is included) spent since the previous
 * mark, and the wall time since the process began (`performance.now()` counts from it, so the
 * first mark holds module loading). Off, a mark is one comparison: it stays in the start path so
 * the next question about start-up starts from a measurement, not a guess. The server's entry
 * switches it on (paths.ts `startTraceOf`).
 */
let on = false;
let lastWall = 0;
let lastCpu = { user: 0, system: 0 };

export function traceStart(enabled: boolean): void {
  on = enabled;
}

export function startPhase(name: string): void {
  if (!on) return;
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const cpuMs = (cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000;
  console.log(
    `start-trace ${name.padEnd(28)} ${String(Math.round(wall - lastWall)).padStart(6)} ms wall ${String(Math.round(cpuMs)).padStart(6)} ms cpu  (at ${Math.round(wall)} ms)`,
  );
  lastWall = wall;
  lastCpu = cpu;
}
