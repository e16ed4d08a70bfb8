// turndown's browser build: the same TurndownService as the package's, without domino.
declare module "turndown/lib/turndown.browser.es.js" {
  import type TurndownService from "turndown";

  const BrowserTurndownService: typeof TurndownService;
  export default BrowserTurndownService;
}
