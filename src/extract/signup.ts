import {
  contains,
  type Element,
  hasDescendant,
  isElement,
  removeNode,
  textLength,
  visibleTextLength,
  walkWithin,
} from "./nodes.ts";

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

/** Whether an `<input>` asks for an email address: typed so, or a text field named so. */
function isEmailInput(input: Element): boolean {
  const { type = "text", name = "", id = "", autocomplete = "", placeholder = "" } = input.attribs;
  const kind = type.toLowerCase();
  return kind === "email" || (kind === "text" && EMAIL.test(`${name} ${id} ${autocomplete} ${placeholder}`));
}

/**
 * Whether `form` signs a reader up with their email address and asks nothing else of length: one
 * walk of its fields (no text area, no password, not the page's title).
 */
export function isSignupForm(form: Element): boolean {
  let email = false;
  let other = false;
  let text = 0;
  // A bigger form is no sign-up box, and forms nested in it are not each walked whole.
  const small = walkWithin(form, FORM_NODES, (node) => {
    if (node.type === "text") text += textLength(node);
    else if (isElement(node)) {
      const password = node.name === "input" && node.attribs.type?.toLowerCase() === "password";
      if (password || node.name === "textarea" || TITLE.has(node.name)) other = true;
      else if (node.name === "input") email ||= isEmailInput(node);
    }
  });
  return small && email && !other && text < FORM_TEXT;
}

/** Nodes a sign-up form holds at most: its fields, labels and small print, wrappers included. */
const FORM_NODES = 400;

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

/**
 * Removes each sign-up form of `forms` (found by cleaning `root`, before it dropped their inputs)
 * with the heading and pitch around it. A page of many forms costs one pass: a form inside a box
 * already removed is passed over, not climbed from again.
 */
export function dropSignupBoxes(root: Element, forms: Element[]): void {
  // A form no longer under `root` sits inside a box removed before it.
  for (const form of forms) if (contains(root, form)) removeNode(signupBox(form));
}
