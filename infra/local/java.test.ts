import { describe, expect, it } from 'vitest';
import { installCommand, JavaMissingError, javaMajor, requireJava } from './java';

describe('Java for DynamoDB Local', () => {
  it('reads the major version of old and new banners', () => {
    expect(javaMajor('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment')).toBe(17);
    expect(javaMajor('openjdk version "21" 2023-09-19')).toBe(21);
    expect(javaMajor('java version "1.8.0_402"')).toBe(8);
    expect(javaMajor('bash: java: command not found')).toBeNull();
  });

  it('accepts Java 17 or later', () => {
    expect(requireJava(() => ({ stdout: '', stderr: 'openjdk version "17.0.15" 2025-04-15' }))).toBe(17);
  });

  it('stops with the install command when Java is missing or too old, without a Java trace', () => {
    const missing = () => requireJava(() => ({ error: Object.assign(new Error('spawnSync java ENOENT'), { code: 'ENOENT' }), stdout: '', stderr: '' }));
    expect(missing).toThrow(JavaMissingError);
    expect(missing).toThrow(/no Java runtime was found[\s\S]*apt-get install -y default-jre-headless/);
    expect(() => requireJava(() => ({ stdout: '', stderr: 'java version "1.8.0_402"' }))).toThrow(/version 8/);
  });

  it('names the installer of each platform', () => {
    expect(installCommand('darwin')).toBe('brew install openjdk@17');
    expect(installCommand('win32')).toContain('winget');
    expect(installCommand('linux', 'ID=debian\nVERSION_ID="12"')).toBe('sudo apt-get install -y default-jre-headless');
    expect(installCommand('linux', 'ID=ubuntu\nID_LIKE=debian')).toBe('sudo apt-get install -y default-jre-headless');
    expect(installCommand('linux', 'ID="rocky"\nID_LIKE="rhel centos fedora"')).toBe('sudo dnf install -y java-17-openjdk-headless');
    expect(installCommand('linux', 'ID=alpine')).toBe('sudo apk add openjdk17-jre-headless');
  });
});
