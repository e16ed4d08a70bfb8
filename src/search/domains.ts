/**
 * Keeping a search to some sites, or away from some: a domain list as the engines' own
 * operators (site:, -site:, which DuckDuckGo and Brave document), and the same rule applied to
 * what comes back, for engines without them (SearXNG passes operators to engines that may
 * ignore them) and for hits an operator let through.
 */

/** Domains a search keeps to (any of them) and keeps away from (all of them); empty: no rule. */
export interface DomainRule {
  include: string[];
  exclude: string[];
}

/** Whether `host` is `domain` or one of its subdomains ("docs.example.com" is "example.com"). */
function within(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return undefined;
  }
}

/** Whether a result's URL passes the rule: on an included domain (when any), on no excluded one. */
export function allowedByDomains(url: string, rule: DomainRule): boolean {
  if (rule.include.length === 0 && rule.exclude.length === 0) return true;
  const host = hostOf(url);
  if (host === undefined) return false;
  if (rule.include.length && !rule.include.some((domain) => within(host, domain))) return false;
  return !rule.exclude.some((domain) => within(host, domain));
}

/** The query with the rule as operators: `(site:a OR site:b)` and `-site:c` for each excluded domain. */
export function withDomainOperators(q: string, rule: DomainRule): string {
  const parts = [q];
  if (rule.include.length === 1) parts.push(`site:${rule.include[0]}`);
  else if (rule.include.length > 1) parts.push(`(${rule.include.map((d) => `site:${d}`).join(" OR ")})`);
  for (const domain of rule.exclude) parts.push(`-site:${domain}`);
  return parts.join(" ");
}

/**
 * A domain as a rule compares it: lower-case, without a scheme, path, port or leading "www."
 * ("https://WWW.Example.com/docs" is "example.com"); undefined when nothing host-like is left.
 */
export function normalizeDomain(raw: string): string | undefined {
  const text = raw.trim().toLowerCase();
  const host = (text.includes("://") ? hostOf(text) : hostOf(`http://${text}`)) ?? "";
  return /^(?=.{1,253}$)([a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}$/.test(host) && host.includes(".")
    ? host
    : undefined;
}
