/**
 * Debian's headless Chromium for the browser tests, driven by playwright-core, started as this
 * machine needs it: without a sandbox (root), and without the background networking that a closed
 * network refuses. CHROMIUM_PATH names another binary.
 */
import { Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
