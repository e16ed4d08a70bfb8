import type TurndownService from "turndown";

/** Lists for turndown: "- item", ordered items numbered as a browser counts them, no rule inside an item. */

/** Whether `node` sits inside a list item. */
export function insideListItem(node: Node): boolean {
  for (let up = node.parentNode; up; up = up.parentNode) if (up.nodeName === "LI") return true;
  return false;
}

/** Each ordered list's items by number, read once per list: indexOf per item is quadratic in a long list. */
const itemNumbers = new WeakMap<Node, Map<Node, number>>();

/**
 * An ordered list item's number as a browser shows it: the list's `start`, counting on (down in a
 * `reversed` list, from its number of items unless `start` says), and an item's own `value`
 * (`<li value="3">`) from that item on.
 */
function itemNumber(list: HTMLElement, item: Node): number {
  let numbers = itemNumbers.get(list);
  if (!numbers) {
    numbers = new Map();
    const items = Array.from(list.children);
    const reversed = list.hasAttribute("reversed");
    let next = listStart(list, reversed ? items.filter((child) => child.nodeName === "LI").length : 1);
    for (const child of items) {
      next = listNumber(child.nodeName === "LI" ? child.getAttribute("value") : null) ?? next;
      // Markdown writes no negative number: a reversed list counting past 0 stays at 0.
      numbers.set(child, Math.max(0, next));
      next += reversed ? -1 : 1;
    }
    itemNumbers.set(list, numbers);
  }
  return numbers.get(item) ?? listStart(list, 1);
}

/** A list number as markdown can write it: 0 up to 8 digits (markdown's 9 leave room to count on); else null. */
function listNumber(attribute: string | null): number | null {
  const n = Number.parseInt(attribute ?? "", 10);
  return Number.isInteger(n) && n >= 0 && n < 1e8 ? n : null;
}

/** An ordered list's first number: its `start`, else `first`. */
function listStart(list: HTMLElement, first: number): number {
  return listNumber(list.getAttribute("start")) ?? first;
}

/**
 * Adds the list item rule, and the one that drops a rule inside an item, to `td`. The item rule
 * replaces turndown's; the other wins over turndown's rule for `<hr>`, added before it.
 */
export function addListRules(td: TurndownService): void {
  // "- item" rather than turndown's "-   item": what people write, and fewer tokens.
  td.addRule("listItem", {
    filter: "li",
    replacement: (content, node) => {
      // An item left without content (its picture or link gone) is a bare "-": no item at all.
      if (!content.trim()) return "";
      const parent = node.parentNode as HTMLElement | null;
      let prefix = "- ";
      if (parent?.nodeName === "OL") {
        prefix = `${itemNumber(parent, node)}. `;
      }
      // A line break before the item's first text (a <br> after a removed header) would leave "-"
      // alone on its line, which CommonMark reads as an empty item followed by a paragraph.
      const body = content
        .replace(/^\s*\n/, "")
        .replace(/\n+$/, content.endsWith("\n\n") ? "\n" : "")
        .replace(/^\[([ x])\] +/, "[$1] ");
      return prefix + body.replace(/\n/g, `\n${" ".repeat(prefix.length)}`) + (node.nextSibling ? "\n" : "");
    },
  });
  // A rule inside a list item (a card's divider) has no markdown of its own: "- * * *" reads as
  // an item holding a line, or as a line where the item was.
  td.addRule("ruleInListItem", {
    filter: (node) => node.nodeName === "HR" && insideListItem(node),
    replacement: () => "",
  });
}
