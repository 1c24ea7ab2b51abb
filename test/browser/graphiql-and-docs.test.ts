// A browser against a running demo toolgate, as a new user meets it: `toolgate serve --demo`, then
// GraphiQL runs the starter query with the pre-filled demo token, and /docs renders, both without an
// error, a policy violation or a request to another origin. Debian's Chromium, driven by
// playwright-core; never a downloaded browser. Screenshots go to test-artifacts/ (gitignored; CI
// keeps them). Without Chromium the suite is skipped, visibly.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";

const CHROMIUM = process.env.TOOLGATE_TEST_CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = path.resolve("test-artifacts");
const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent) {
  console.warn(`[toolgate tests] ${CHROMIUM} not found: the browser test (GraphiQL, /docs) is SKIPPED. Install it with: apt-get install -y chromium`);
}

interface Watched {
  /** Uncaught errors, console errors, Content-Security-Policy violations (our headers must not break our pages), requests elsewhere. */
  problems: string[];
}

async function watchProblems(page: Page, origin: string): Promise<Watched> {
  const watched: Watched = { problems: [] };
  page.on("pageerror", (error) => watched.problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") watched.problems.push(`console error: ${message.text()}`);
  });
  // The pages are served for closed networks: nothing may leave our origin (data: URLs do not).
  page.on("request", (request) => {
    if (!request.url().startsWith(`${origin}/`) && !request.url().startsWith("data:")) watched.problems.push(`request to another origin: ${request.url()}`);
  });
  await page.exposeFunction("reportViolation", (directive: string, blocked: string) => watched.problems.push(`CSP violation: ${directive} ${blocked}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      (window as unknown as { reportViolation(directive: string, blocked: string): void }).reportViolation(event.violatedDirective, event.blockedURI),
    );
  });
  return watched;
}

/** The page's icon, fetched as the browser would: its status and type. */
const iconOf = (page: Page) =>
  page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return undefined;
    const response = await fetch(link.href);
    return { status: response.status, type: response.headers.get("content-type") };
  });

const ICON = { status: 200, type: "image/x-icon" };

describe.skipIf(!chromiumPresent)("a browser against `toolgate serve --demo`", () => {
  let folder: string;
  let server: ServingToolgate;
  let browser: Browser;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), "toolgate-browser-"));
    mkdirSync(ARTIFACTS, { recursive: true });
    [server, browser] = await Promise.all([
      serveToolgate({ TOOLGATE_DATABASE_URL: `file:${path.join(folder, "toolgate.db")}` }, 120_000, ["--demo"]),
      chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-background-networking"] }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.ensureDead();
    rmSync(folder, { recursive: true, force: true });
  });

  it("runs GraphiQL's starter query Me with the pre-filled demo token and shows its data", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const { problems } = await watchProblems(page, server.url);
    const response = await page.goto(`${server.url}/graphql`, { waitUntil: "load", timeout: 90_000 });
    // No inline script, and the editors' workers are files of ours, not blob: URLs.
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'; ");
    expect(response?.headers()["content-security-policy"]).toContain("worker-src 'self'; ");
    // The starter document holds several operations: the run button asks which one.
    await page.locator(".graphiql-execute-button").click({ timeout: 90_000 });
    await page.getByRole("menuitem", { name: "Me", exact: true }).click();
    const result = page.locator(".graphiql-response");
    await expect.poll(async () => (await result.textContent()) ?? "", { timeout: 30_000 }).toContain("alice@demo.toolgate.dev");
    const shown = (await result.textContent()) ?? "";
    expect(shown).toContain('"data"');
    expect(shown).not.toContain('"errors"');
    await page.screenshot({ path: path.join(ARTIFACTS, "graphiql-me.png") });
    expect(await iconOf(page)).toEqual(ICON);
    expect(problems).toEqual([]);
  }, 180_000);

  it("shows the landing page: what toolgate is, and a link to each surface that answers", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const { problems } = await watchProblems(page, server.url);
    await page.goto(`${server.url}/`, { waitUntil: "load", timeout: 60_000 });
    expect(await page.locator("h1").textContent()).toMatch(/^toolgate/);
    expect(await page.locator("p.lead").textContent()).toMatch(/registry for tool middleware/);
    const cards = await page.locator(".surfaces a").evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
    expect(cards).toHaveLength(4);
    for (const href of cards) expect((await fetch(href, { headers: { accept: "text/html" } })).status).toBe(200);
    await page.screenshot({ path: path.join(ARTIFACTS, "landing.png") });
    expect(problems).toEqual([]);
  }, 120_000);

  it("renders the REST reference at /docs (when this build serves it)", async (context) => {
    const probe = await fetch(`${server.url}/docs`);
    if (probe.status === 404) {
      console.warn("[toolgate tests] /docs answers 404 in this build: its browser check is SKIPPED");
      context.skip();
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const { problems } = await watchProblems(page, server.url);
    await page.goto(`${server.url}/docs`, { waitUntil: "networkidle", timeout: 90_000 });
    // The reference lists the REST operations once Scalar has read /openapi.json.
    await expect.poll(async () => page.evaluate(() => document.body.innerText), { timeout: 60_000 }).toMatch(/tool-releases|grant/i);
    await page.screenshot({ path: path.join(ARTIFACTS, "docs.png"), fullPage: false });
    // None of Scalar's hosted services, whose buttons could only fail here.
    const buttons = await page.evaluate(() =>
      [...document.querySelectorAll("button, [role=button], a")].map((element) => (element as HTMLElement).innerText.trim()),
    );
    expect(buttons.length).toBeGreaterThan(10);
    expect(buttons.filter((text) => /^(?:Ask AI|Deploy|Share|Configure|Developer Tools)$/i.test(text))).toEqual([]);
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/Ask AI/);
    expect(await iconOf(page)).toEqual(ICON);
    expect(problems).toEqual([]);
  }, 180_000);
});

/** A port free right now, for two servers one after the other on one origin. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once("error", reject);
  });

/** Runs the starter's operation Me in a new tab of `context`; the response pane's text once it shows alice. */
async function runMe(context: BrowserContext, url: string): Promise<string> {
  const page = await context.newPage();
  await page.goto(`${url}/graphql`, { waitUntil: "load", timeout: 90_000 });
  await page.locator(".graphiql-execute-button").click({ timeout: 90_000 });
  await page.getByRole("menuitem", { name: "Me", exact: true }).click();
  const result = page.locator(".graphiql-response");
  await expect.poll(async () => (await result.textContent()) ?? "", { timeout: 30_000 }).toMatch(/alice@demo\.toolgate\.dev|"errors"/);
  const shown = (await result.textContent()) ?? "";
  await page.close();
  return shown;
}

describe.skipIf(!chromiumPresent)("GraphiQL after the demo is reset (README: Resetting the demo)", () => {
  it("sends the new database's demo token and ids, not the ones the browser kept from the database before", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "toolgate-browser-reset-"));
    const database = { TOOLGATE_DATABASE_URL: `file:${path.join(folder, "toolgate.db")}` };
    const port = String(await freePort());
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-background-networking"] });
    let server: ServingToolgate | undefined;
    try {
      // One browser profile for both: the same origin, so the same localStorage.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      server = await serveToolgate(database, 120_000, ["--demo", "--port", port]);
      expect(await runMe(context, server.url)).toContain("alice@demo.toolgate.dev");
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder);
      server = await serveToolgate(database, 120_000, ["--demo", "--port", port]);
      const shown = await runMe(context, server.url);
      expect(shown).toContain("alice@demo.toolgate.dev");
      expect(shown).not.toContain('"errors"');
    } finally {
      await browser.close();
      await server?.ensureDead();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);
});
