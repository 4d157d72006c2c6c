/**
 * DynamoDB Local is a Java program: without Java 17 or later it would die with a Java stack trace
 * or a spawn error deep in the start. This check runs first (`npm start` calls it before building
 * the web app) and stops at once with the one command that installs Java on this kind of machine.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { platform } from 'node:os';
import { pathToFileURL } from 'node:url';

export const MIN_JAVA_MAJOR = 17;

export class JavaMissingError extends Error {
  override name = 'JavaMissingError';
}

/** The major version in `java -version`'s banner: "17.0.15" gives 17, the old "1.8.0_402" gives 8. */
export function javaMajor(banner: string): number | null {
  const m = /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(banner);
  if (!m?.[1]) return null;
  const first = Number(m[1]);
  return first === 1 && m[2] ? Number(m[2]) : first;
}

/** The one command that installs a suitable Java here; on Linux by the distribution's family. */
export function installCommand(os: NodeJS.Platform = platform(), osRelease: string = readOsRelease()): string {
  switch (os) {
    case 'darwin':
      return 'brew install openjdk@17';
    case 'win32':
      return 'winget install EclipseAdoptium.Temurin.17.JRE';
    default: {
      const family = (osRelease.match(/^ID(?:_LIKE)?=.*$/gm) ?? []).join(' ');
      if (/fedora|rhel|centos/.test(family)) return 'sudo dnf install -y java-17-openjdk-headless';
      if (/alpine/.test(family)) return 'sudo apk add openjdk17-jre-headless';
      if (/suse/.test(family)) return 'sudo zypper install -y java-17-openjdk-headless';
      return 'sudo apt-get install -y default-jre-headless';
    }
  }
}

function readOsRelease(): string {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return '';
  }
}

/** Throws JavaMissingError with what to do when `java` is missing or older than 17. */
export function requireJava(run: () => { error?: Error; stdout: string; stderr: string } = runJavaVersion): number {
  const out = run();
  const found = out.error ? null : javaMajor(`${out.stderr}\n${out.stdout}`);
  if (found !== null && found >= MIN_JAVA_MAJOR) return found;
  const what = found === null ? 'no Java runtime was found on the PATH' : `the Java on the PATH is version ${found}`;
  throw new JavaMissingError(
    `The embedded portal runs DynamoDB Local, which needs Java ${MIN_JAVA_MAJOR} or later, but ${what}.\nInstall it with:\n\n  ${installCommand()}\n\nthen run npm start again.`,
  );
}

function runJavaVersion(): { error?: Error; stdout: string; stderr: string } {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 15_000 });
  return { ...(out.error ? { error: out.error } : {}), stdout: out.stdout ?? '', stderr: out.stderr ?? '' };
}

// `tsx infra/local/java.ts`: the check on its own, before `npm start` spends time on the build.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    requireJava();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
