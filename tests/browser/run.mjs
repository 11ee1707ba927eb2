// Drives Debian's Chromium (never a downloaded browser) through
// playwright-core: opens page.html on its own origin and waits for the
// page's checks (its own fetch and EventSource calls; nothing is checked
// from here over HTTP). Then reads the api's debug log: no ticket the page
// used may appear in it, and `ticket=***` must.
//
// Env (set by scripts/browser-test.sh): PAGE_URL, API_BIN, API_PORT,
// API_DATA_DIR, API_LOG, REFUSING_URL, USER_DATA_DIR, NODE_DIR.
import { spawn } from "node:child_process";
import { readFileSync, openSync } from "node:fs";
import { createRequire } from "node:module";

// playwright-core lives under the target dir (NODE_DIR), not beside this file.
const { chromium } = createRequire(`${process.env.NODE_DIR}/`)("playwright-core");

const env = process.env;
const API = `http://127.0.0.1:${env.API_PORT}`;

/** Starts the api on API_PORT with API_DATA_DIR (default CORS), logging every request. */
function startApi() {
  const out = openSync(env.API_LOG, "a");
  return spawn(env.API_BIN, [], {
    env: { ...env, PORT: env.API_PORT, DATA_DIR: env.API_DATA_DIR, RUST_LOG: "api=debug,info", RATE_LIMIT: "0" },
    stdio: ["ignore", out, out],
  });
}

async function ready(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never became ready`);
}

let api = startApi();
await ready(API);

// A fresh user data dir (made by the script), given the way Playwright
// takes one: as a persistent context's directory.
const browser = await chromium.launchPersistentContext(env.USER_DATA_DIR, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});
let results;
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.on("pageerror", (e) => console.error("page error:", e.message));
  // The page asks for the restart (it is not a checked call): same data
  // dir (the same signing key) and port, so EventSource reconnects to it.
  await page.exposeFunction("restartApi", async () => {
    const exited = new Promise((r) => api.once("exit", r));
    api.kill("SIGTERM");
    await exited;
    api = startApi();
    await ready(API);
  });
  const url = `${env.PAGE_URL}?api=${encodeURIComponent(API)}&refusing=${encodeURIComponent(env.REFUSING_URL)}`;
  await page.goto(url);
  await page.waitForFunction(() => window.__results, null, { timeout: 90_000 });
  results = await page.evaluate(() => window.__results);
} finally {
  await browser.close();
  api.kill("SIGTERM");
}

const failures = [];
if (!results.ok) failures.push(results.error);
// The request log (debug: every request) shows the streams opened by
// ticket, never a ticket's value.
const logText = readFileSync(env.API_LOG, "utf8");
if (!results.tickets.length) failures.push("the page minted no ticket");
for (const t of results.tickets) {
  if (logText.includes(t) || logText.includes(encodeURIComponent(t))) failures.push("a ticket's value is in the api log");
}
if (!logText.includes("ticket=***")) failures.push("the api log does not show the streams opened with ticket=***");
else results.passed.push(`tickets redacted from the request log (${results.tickets.length} tickets, none in ${logText.split("\n").length} log lines)`);

for (const line of results.passed) console.log(`  ok  ${line}`);
for (const line of failures) console.log(`  FAILED  ${line}`);
console.log(failures.length ? "browser test: FAILED" : `browser test: ${results.passed.length} checks passed`);
process.exit(failures.length ? 1 : 0);
