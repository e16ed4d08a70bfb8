import type { Document } from "domhandler";
import { Parser } from "htmlparser2";
import { BoundedDomHandler } from "./depth.ts";
import { AVATAR_CLASS, AVATAR_SRC } from "./images.ts";
import { isPhoneOnlyClass } from "./layout-twins.ts";
import { mayHoldMojibake } from "./mojibake.ts";

/**
 * What a page holds that some extraction steps look for, noted by the parser as it builds the
 * tree: a step whose mark is absent spares its walk. Noting an element costs a few property
 * reads; searching the page's string for each mark (a page is 260 KB on average, most of it
 * scripts and styles) cost a fifth of the whole extraction.
 */
export interface PageMarks {
  /** Tables in the markup (split tables need two, code tables one). */
  tables: number;
  /** A `<pre>` (code whose lines may be numbered). */
  pre: boolean;
  /** An `<rt>` (ruby readings). */
  ruby: boolean;
  /** A class naming Asciidoctor's admonition block. */
  admonitions: boolean;
  /** An address Cloudflare obfuscates (`data-cfemail`, or a link to its email-protection page). */
  cfEmail: boolean;
  /** An element whose id names a streamed segment (`S:1`, see streamed.ts). */
  streamed: boolean;
  /** Text a reader sees (not a script's or a style's), an `alt` or a `title` that may be mojibake. */
  mojibake: boolean;
  /** A class that may name a part only phones show (layout-twins.ts). */
  phoneOnly: boolean;
  /** A class or an image source that may name a person's picture (images.ts, isAvatar). */
  avatars: boolean;
}

const CF_PATH = "/cdn-cgi/l/email-protection";

/** The depth-bounded handler of depth.ts, noting each element's and each text's marks as it goes. */
class MarkingDomHandler extends BoundedDomHandler {
  readonly marks: PageMarks = {
    tables: 0,
    pre: false,
    ruby: false,
    admonitions: false,
    cfEmail: false,
    streamed: false,
    mojibake: false,
    phoneOnly: false,
    avatars: false,
  };

  // The parser's own callbacks, called before the element is built: a name and each attribute once,
  // with no lookups into the element's attributes.
  onopentagname(name: string): void {
    const marks = this.marks;
    if (name === "table") marks.tables++;
    else if (name === "pre") marks.pre = true;
    else if (name === "rt") marks.ruby = true;
  }

  onattribute(name: string, value: string): void {
    const marks = this.marks;
    // A lazy image's source is read from its `data-src` (or the like) later: any `…src` may be it.
    if (!marks.avatars && name.endsWith("src") && AVATAR_SRC.test(value)) marks.avatars = true;
    switch (name) {
      case "id":
        if (value.startsWith("S:")) marks.streamed = true;
        break;
      case "class":
        if (value.includes("admonitionblock")) marks.admonitions = true;
        if (!marks.phoneOnly && isPhoneOnlyClass(value)) marks.phoneOnly = true;
        if (!marks.avatars && AVATAR_CLASS.test(value)) marks.avatars = true;
        break;
      case "href":
        if (value.includes(CF_PATH)) marks.cfEmail = true;
        break;
      case "data-cfemail":
        marks.cfEmail = true;
        break;
      case "alt":
      case "title":
        if (!marks.mojibake && mayHoldMojibake(value)) marks.mojibake = true;
        break;
    }
  }

  override ontext(data: string): void {
    const marks = this.marks;
    if (!marks.mojibake) {
      const type = this.tagStack[this.tagStack.length - 1]!.type;
      if (type === "tag" || type === "root") {
        // A text arrives in pieces (an entity is a piece of its own): a pair may straddle two.
        const last = this.lastNode;
        if (mayHoldMojibake(data)) marks.mojibake = true;
        else if (last && last.type === "text" && mayHoldMojibake(last.data.slice(-1) + data.slice(0, 1)))
          marks.mojibake = true;
      }
    }
    super.ontext(data);
  }
}

/** Parses HTML as parseBounded does (entities decoded, a TypeError when not a string), noting the page's marks on the way. */
export function parseMarked(html: string): { document: Document; marks: PageMarks } {
  if (typeof html !== "string") throw new TypeError("parseMarked() expects a string");
  const handler = new MarkingDomHandler();
  new Parser(handler, { decodeEntities: true }).end(html);
  return { document: handler.root, marks: handler.marks };
}
