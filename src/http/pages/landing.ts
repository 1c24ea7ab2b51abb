// The page at `/`: what toolgate is and for whom, in two lines, and the way to each surface. Plain
// HTML with its style inline (the page policy allows inline styles, no scripts), light or dark as
// the reader's system prefers, the colours of GraphiQL and the reference page's.
import { FAVICON_PATH } from "./favicon.js";

export interface LandingLinks {
  graphql: string;
  docs: string;
  openapi: string;
  healthz: string;
  readyz: string;
  metrics: string;
}

const STYLE = `
:root { color-scheme: light dark; --ink: #1b1f3b; --muted: #5b6078; --line: #dfe1ea; --card: #ffffff; --page: #f6f7fb; --accent: #e10098; }
@media (prefers-color-scheme: dark) { :root { --ink: #e8eaf4; --muted: #a3a8c3; --line: #2c3150; --card: #1a1e36; --page: #0f1224; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--page); color: var(--ink); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 54rem; margin: 0 auto; padding: 3.5rem 1.5rem 2rem; }
h1 { margin: 0; font-size: 2rem; letter-spacing: -0.01em; }
h1 small { font-size: 0.9rem; font-weight: 500; color: var(--muted); margin-left: 0.5rem; }
.lead { margin: 0.75rem 0 2rem; color: var(--muted); max-width: 44rem; }
.surfaces { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 1rem; margin: 0; padding: 0; list-style: none; }
.surfaces a { display: block; height: 100%; padding: 1.1rem 1.25rem; border: 1px solid var(--line); border-radius: 0.75rem; background: var(--card); color: inherit; text-decoration: none; }
.surfaces a:hover, .surfaces a:focus-visible { border-color: var(--accent); outline: none; }
.surfaces strong { display: block; color: var(--accent); font-size: 1.05rem; }
.surfaces code, footer code { font: 0.85em ui-monospace, SFMono-Regular, Menlo, monospace; }
.surfaces span { display: block; margin-top: 0.35rem; color: var(--muted); font-size: 0.92rem; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: 0.9rem; }
footer a { color: inherit; }
`;

export function landingPage(version: string, links: LandingLinks): string {
  const surfaces = [
    {
      href: links.graphql,
      title: "GraphiQL",
      path: links.graphql,
      about: "Explore the graph in the browser: accounts, releases, environments, grants, change events.",
    },
    {
      href: links.docs,
      title: "REST API reference",
      path: "/v1",
      about: "Every /v1 operation with its parameters, bodies and errors; try requests from the page.",
    },
    {
      href: links.openapi,
      title: "OpenAPI document",
      path: links.openapi,
      about: "OpenAPI 3.1, for generating typed clients (openapi-typescript, openapi-fetch…).",
    },
    { href: "/v1", title: "REST index", path: "/v1", about: "Where each surface is, as JSON, for scripts and clients." },
  ];
  const cards = surfaces
    .map((card) => `<li><a href="${card.href}"><strong>${card.title}</strong><code>${card.path}</code><span>${card.about}</span></a></li>`)
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolgate</title>
<link rel="icon" href="${FAVICON_PATH}">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>toolgate<small>${version}</small></h1>
<p class="lead">A registry for tool middleware: accounts publish immutable tool releases, and environments are granted exact releases.
For platform teams and the pipelines that deploy their tools, over GraphQL and the REST <code>/v1</code> API alike.</p>
<ul class="surfaces">
${cards}
</ul>
<footer>Operations: <a href="${links.healthz}">liveness</a> · <a href="${links.readyz}">readiness</a> · <a href="${links.metrics}">Prometheus metrics</a> (when served on this port). API calls need <code>Authorization: Bearer &lt;token&gt;</code>.</footer>
</main>
</body>
</html>
`;
}
