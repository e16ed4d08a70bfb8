import { type AnyNode, type Element, hasDescendant, removeNode, visibleTextLength } from "./nodes.ts";

/**
 * A newsletter's sign-up box ("Deals, drops and trends. Straight to your inbox. Your email
 * address [Subscribe]") is a site's prompt wherever it stands, whatever its class names say: a
 * form asking for an email address and nothing longer (no password: a sign-in; no text area: a
 * message to send), with the few words that head and explain it.
 */

/** Visible text a sign-up form holds at most (its labels, its topics' checkboxes, its small print). */
const FORM_TEXT = 600;
/** Text the box may hold beside its form (its heading and pitch) at each step out. */
const PITCH_TEXT = 200;

const EMAIL = /e-?mail/i;
const TITLE = new Set(["h1"]);
const LONGER_INPUT = new Set(["textarea"]);

function asksForEmail(form: Element): { email: boolean; password: boolean } {
  let email = false;
  let password = false;
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (child.type !== "tag") continue;
      if (child.name === "input") {
        const { type = "text", name = "", id = "", autocomplete = "", placeholder = "" } = child.attribs;
        const kind = type.toLowerCase();
        if (kind === "password") password = true;
        else if (
          kind === "email" ||
          (kind === "text" && EMAIL.test(`${name} ${id} ${autocomplete} ${placeholder}`))
        )
          email = true;
      } else visit(child);
    }
  };
  visit(form);
  return { email, password };
}

/** Whether `form` signs a reader up with their email address and asks nothing else of length. */
export function isSignupForm(form: Element): boolean {
  if (hasDescendant(form, LONGER_INPUT) || hasDescendant(form, TITLE)) return false;
  const { email, password } = asksForEmail(form);
  return email && !password && visibleTextLength(form, FORM_TEXT) < FORM_TEXT;
}

/** The box around a sign-up form: its ancestors as long as each adds only a heading and a pitch to it. */
function signupBox(form: Element): Element {
  let box = form;
  let text = visibleTextLength(form);
  for (let parent = box.parent; parent && parent.type === "tag"; parent = parent.parent) {
    const name = parent.name;
    if (name === "body" || name === "main" || name === "article") break;
    // The text first: counting stops at the limit, where a search for the title would walk all of it.
    const limit = text + PITCH_TEXT;
    const total = visibleTextLength(parent, limit);
    if (total >= limit || hasDescendant(parent, TITLE)) break;
    box = parent;
    text = total;
  }
  return box;
}

/** Whether `node` is still under `root` (not inside a box removed before it). */
function under(root: Element, node: AnyNode): boolean {
  for (let cur: AnyNode | null = node; cur; cur = cur.parent) if (cur === root) return true;
  return false;
}

/**
 * Removes each sign-up form of `forms` (found by cleaning `root`, before it dropped their inputs)
 * with the heading and pitch around it. A page of many forms costs one pass: a form inside a box
 * already removed is passed over, not climbed from again.
 */
export function dropSignupBoxes(root: Element, forms: Element[]): void {
  for (const form of forms) if (under(root, form)) removeNode(signupBox(form));
}
