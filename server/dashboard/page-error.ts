/**
 * A refusal only the dashboard's pages make (a forged form, a page that does not exist); it is
 * shown as an HTML page, never sent to an API client, so it needs no row in the error table.
 */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "PageError";
  }
}

/** A form posted without this session's CSRF token, or from another site. */
export function csrfRefused(): PageError {
  return new PageError(
    403,
    "Form refused",
    "This form is out of date or was sent from another site, so nothing was changed.",
    "Reload the page and send the form again.",
  );
}

export function pageNotFound(what = "This page"): PageError {
  return new PageError(404, "Not found", `${what} does not exist, or is not yours.`);
}
