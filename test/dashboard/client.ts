/**
 * A browser without JavaScript, for the dashboard's in-process tests: it keeps cookies as a
 * browser does (by name, dropping those set to expire), sends forms form-encoded, and reads
 * the CSRF token of the last page it saw, the way a no-script browser submits the page's form.
 */
export class FormClient {
  readonly cookies = new Map<string, string>();
  /** The Set-Cookie values of the last answer, whole (flags included). */
  setCookies: string[] = [];
  lastPage = "";

  constructor(
    private readonly send: (path: string, init?: RequestInit) => Promise<Response>,
    private readonly base = "http://localhost",
  ) {}

  private headers(extra: Record<string, string> = {}): Headers {
    const headers = new Headers(extra);
    if (this.cookies.size)
      headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    return headers;
  }

  private keep(response: Response): void {
    this.setCookies = response.headers.getSetCookie();
    for (const line of this.setCookies) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0\b/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await this.send(path, { headers: this.headers(headers) });
    this.keep(response);
    if (response.headers.get("content-type")?.startsWith("text/html"))
      this.lastPage = await response.clone().text();
    return response;
  }

  /** Posts a form; the CSRF token of the last page is added unless `fields.csrf` is given (null: none). */
  async post(
    path: string,
    fields: Record<string, string | null>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const body = new URLSearchParams();
    const csrf = "csrf" in fields ? fields.csrf : this.csrf();
    if (csrf) body.set("csrf", csrf);
    for (const [name, value] of Object.entries(fields))
      if (name !== "csrf" && value !== null) body.set(name, value);
    const response = await this.send(path, {
      method: "POST",
      headers: this.headers({
        "content-type": "application/x-www-form-urlencoded",
        origin: this.base,
        "sec-fetch-site": "same-origin",
        ...headers,
      }),
      body: body.toString(),
    });
    this.keep(response);
    if (response.headers.get("content-type")?.startsWith("text/html"))
      this.lastPage = await response.clone().text();
    return response;
  }

  /** The CSRF token in the last page's forms. */
  csrf(): string | null {
    return /name="csrf" value="([^"]+)"/.exec(this.lastPage)?.[1] ?? null;
  }
}

/** The key a key-creation page shows once. */
export function shownKey(page: string): string | null {
  return /<output id="new-key"[^>]*>(sph_(?:live|test)_[0-9A-Za-z]{32})<\/output>/.exec(page)?.[1] ?? null;
}

/** The text of a page's main landmark, tags stripped. */
export function mainText(page: string): string {
  const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(page)?.[1] ?? "";
  return main
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}
