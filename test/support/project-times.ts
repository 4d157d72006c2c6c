/**
 * A vitest reporter beside the default one (vitest.config.ts): at the end of a run it prints, per
 * project (unit, isolated, api, e2e), the wall-clock time from its first test file's start to its last one's end,
 * the number of files, and their durations summed (more than the wall-clock time when files run
 * side by side). With `TEST_TIMELINE=<file>`, each file's project, start and end (epoch ms) are
 * appended to that file as a line of JSON, to see what ran beside what.
 */
import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

interface ProjectTime {
  first: number;
  last: number;
  files: number;
  summed: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class ProjectTimes implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly projects = new Map<string, ProjectTime>();

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.moduleId + module.project.name, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const end = Date.now();
    const start = this.started.get(module.moduleId + module.project.name) ?? end;
    const name = module.project.name || 'root';
    const time = this.projects.get(name) ?? { first: start, last: end, files: 0, summed: 0 };
    time.first = Math.min(time.first, start);
    time.last = Math.max(time.last, end);
    time.files += 1;
    time.summed += end - start;
    this.projects.set(name, time);
    if (process.env.TEST_TIMELINE) appendFileSync(process.env.TEST_TIMELINE, `${JSON.stringify({ file: module.moduleId, project: name, start, end })}\n`);
  }

  onTestRunEnd(): void {
    if (this.projects.size === 0) return;
    const lines = [...this.projects.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, t]) => `  ${name.padEnd(6)} ${seconds(t.last - t.first).padStart(9)} wall clock, ${String(t.files).padStart(3)} files, ${seconds(t.summed)} summed`);
    process.stdout.write(`\nTime per project:\n${lines.join('\n')}\n`);
  }
}
