import { html, type SafeHtml } from "./html.ts";

export const BASE = "/dashboard";
/** Asset URLs carry a version so a new binary's assets are never mixed with a cached old one's. */
export const ASSET_VERSION = "1";

export type Section = "usage" | "keys" | "jobs" | "watches" | "playground" | "sign-in";

const NAV: { section: Section; label: string; path: string }[] = [
  { section: "usage", label: "Usage", path: `${BASE}/usage` },
  { section: "keys", label: "Keys", path: `${BASE}/keys` },
  { section: "jobs", label: "Jobs", path: `${BASE}/jobs` },
  { section: "watches", label: "Watches", path: `${BASE}/watches` },
  { section: "playground", label: "Playground", path: `${BASE}/playground` },
];

/** Who is signed in, as the header shows it; null when nobody is. */
export interface Viewer {
  label: string;
  /** The CSRF token of the sign-out form; null in local mode, where there is nothing to sign out of. */
  csrf: string | null;
}

export interface PageShell {
  title: string;
  section: Section;
  viewer: Viewer | null;
  body: SafeHtml;
}

/**
 * The frame of every page: a skip link, the site header with its navigation (the current page
 * marked with aria-current), one main landmark, and the stylesheet and script, both served by
 * this server.
 */
export function layout({ title, section, viewer, body }: PageShell): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title} · siphon dashboard</title>
<link rel="stylesheet" href="${BASE}/assets/app.css?v=${ASSET_VERSION}">
<script src="${BASE}/assets/app.js?v=${ASSET_VERSION}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site">
  <a class="brand" href="${BASE}">siphon</a>
  <nav aria-label="Dashboard">
    <ul>
      ${NAV.map(
        (item) =>
          html`<li><a href="${item.path}"${item.section === section ? html` aria-current="page"` : ""}>${item.label}</a></li>`,
      )}
    </ul>
  </nav>
  <div class="who">
    ${
      viewer
        ? html`<span>${viewer.label}</span>${
            viewer.csrf
              ? html`<form class="inline" method="post" action="${BASE}/sign-out">
            <input type="hidden" name="csrf" value="${viewer.csrf}">
            <button type="submit">Sign out</button>
          </form>`
              : ""
          }`
        : section === "sign-in"
          ? ""
          : html`<a href="${BASE}/sign-in">Sign in</a>`
    }
  </div>
</header>
<main id="main" tabindex="-1">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

/** A hidden CSRF field for a form. */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

/** "2026-11-18 12:00 UTC", or a dash. */
export function when(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A <time> element with the machine-readable instant. */
export function time(ms: number | null | undefined): SafeHtml {
  if (ms === null || ms === undefined) return html`<span aria-label="never">—</span>`;
  return html`<time datetime="${new Date(ms).toISOString()}">${when(ms)}</time>`;
}

/** A status message for the top of a page (role=status, or alert for errors). */
export function notice(kind: "ok" | "warn" | "error" | "info", content: SafeHtml | string): SafeHtml {
  return html`<div class="panel notice ${kind === "info" ? "" : kind}" role="${kind === "error" ? "alert" : "status"}">${content}</div>`;
}
