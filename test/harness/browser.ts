/**
 * Debian's headless Chromium for the browser tests, driven by playwright-core, started as this
 * machine needs it: without a sandbox (root), and without the background networking that a closed
 * network refuses. CHROMIUM_PATH names another binary.
 *
 * Without Chromium a browser suite (describeInBrowser) skips, saying what to install (as the nginx test does); under CI
 * (the CI variable set, as .ci/run and hosted CI services set it) a missing Chromium fails instead,
 * because CI installs it and must run these tests.
 */
import fs from 'node:fs';
import { Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const INSTALL_HINT = `no Chromium at ${CHROMIUM}; install it (Debian: apt-get install chromium) or set CHROMIUM_PATH`;

/** CI as hosted services and .ci/run mark it: CI set to anything but '', '0' or 'false'. */
export function runningInCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.CI ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}

function chromiumMissing(): boolean {
  try {
    fs.accessSync(CHROMIUM, fs.constants.X_OK);
    return false;
  } catch {
    return true;
  }
}

const missing = chromiumMissing();

/**
 * `describe` for a browser suite: without Chromium the suite is skipped whole (no hook of it runs)
 * and its title says what to install; under CI it is one failing test saying the same.
 */
export function describeInBrowser(title: string, body: (this: Mocha.Suite) => void): Mocha.Suite | void {
  if (!missing) return describe(title, body);
  if (!runningInCi()) return describe.skip(`${title} (skipped: ${INSTALL_HINT})`, body);
  return describe(title, () => {
    it('has Chromium to run in', () => {
      throw new Error(`The browser tests must run in CI, but there is ${INSTALL_HINT}.`);
    });
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
