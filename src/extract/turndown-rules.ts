import type TurndownService from "turndown";

/** turndown's rule set as it keeps it (not in its type declarations). */
interface Rules {
  array: TurndownService.Rule[];
  _keep: TurndownService.Rule[];
  _remove: TurndownService.Rule[];
  blankRule: TurndownService.Rule;
  defaultRule: TurndownService.Rule;
  options: TurndownService.Options;
  forNode(node: TurndownService.Node): TurndownService.Rule;
}

/** Tag names remembered at most; a page inventing thousands of custom elements clears the index. */
const MAX_NAMES = 1000;

/**
 * Makes `td` find a node's rule from the rules that can match its tag name:
 * turndown tries every rule on every element, lower-casing the tag name once
 * per rule (a tenth of converting a page). The rules are tried in turndown's
 * order (its rules, then kept, then removed), a function filter is asked as
 * turndown asks it, and a blank node gets the blank rule, so every node gets
 * the rule it got before. The index is rebuilt when a rule is added.
 */
export function indexRules(td: TurndownService): void {
  const rules = (td as unknown as { rules: Rules }).rules;
  const byName = new Map<string, TurndownService.Rule[]>();
  let size = -1;
  const candidates = (nodeName: string): TurndownService.Rule[] => {
    const total = rules.array.length + rules._keep.length + rules._remove.length;
    if (total !== size || byName.size > MAX_NAMES) {
      byName.clear();
      size = total;
    }
    let list = byName.get(nodeName);
    if (!list) {
      const name = nodeName.toLowerCase();
      list = [...rules.array, ...rules._keep, ...rules._remove].filter(({ filter }) =>
        typeof filter === "function"
          ? true
          : typeof filter === "string"
            ? filter === name
            : (filter as string[]).includes(name),
      );
      byName.set(nodeName, list);
    }
    return list;
  };
  rules.forNode = (node) => {
    if ((node as { isBlank?: boolean }).isBlank) return rules.blankRule;
    for (const rule of candidates(node.nodeName)) {
      const { filter } = rule;
      if (typeof filter !== "function" || filter.call(rule, node as HTMLElement, rules.options)) return rule;
    }
    return rules.defaultRule;
  };
}
