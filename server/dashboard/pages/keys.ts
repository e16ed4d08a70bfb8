import { createAccountWithKey, issueKey, type NewKey, revokeKey } from "../../../src/auth/keys.ts";
import { accountTier, LOCAL_ACCOUNT_ID } from "../../../src/auth/principal.ts";
import type { ApiKeyInfo } from "../../../src/store/types.ts";
import type { PageRequest } from "../context.ts";
import { html, type SafeHtml } from "../html.ts";
import { BASE, csrfField, notice, time } from "../layout.ts";
import { pageNotFound } from "../page-error.ts";
import { accountKeys } from "../session.ts";

const NAME_MAX = 100;

/** The tier of each account, as the API meters it (the local account's is SIPHON_LOCAL_TIER). */
async function tiersOf(ctx: PageRequest, accountIds: string[]): Promise<Map<string, string>> {
  const tiers = new Map<string, string>();
  for (const id of new Set(accountIds)) {
    const account = await ctx.guard.store.accounts.getAccount(id);
    tiers.set(id, account ? accountTier(account, ctx.guard.config) : "—");
  }
  return tiers;
}

/** The keys the viewer manages: the account's, or every key for the operator. */
async function visibleKeys(ctx: PageRequest): Promise<ApiKeyInfo[]> {
  const session = ctx.signedIn;
  if (session.who === "operator")
    return [...(await ctx.sessions.keysById()).values()].sort((a, b) => b.createdAt - a.createdAt);
  return accountKeys(ctx.sessions, session.accountId ?? LOCAL_ACCOUNT_ID);
}

function keyTable(keys: ApiKeyInfo[], tiers: Map<string, string>, operator: boolean): SafeHtml {
  if (!keys.length) return html`<p>No keys yet.</p>`;
  return html`<div class="table-wrap"><table>
    <caption>${keys.length} key${keys.length === 1 ? "" : "s"}</caption>
    <thead><tr>
      <th scope="col">Name</th><th scope="col">Prefix</th>${operator ? html`<th scope="col">Account</th>` : ""}
      <th scope="col">Tier</th><th scope="col">Created</th><th scope="col">Last used</th>
      <th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th>
    </tr></thead>
    <tbody>
    ${keys.map((key) => {
      const state = key.revokedAt === null ? "active" : "revoked";
      return html`<tr data-key-id="${key.id}">
        <td>${key.name}</td>
        <td class="mono">${key.prefix}…${key.kind === "test" ? html` <span class="hint">(test)</span>` : ""}</td>
        ${operator ? html`<td class="mono">${key.accountId}</td>` : ""}
        <td>${tiers.get(key.accountId) ?? "—"}</td>
        <td>${time(key.createdAt)}</td>
        <td>${time(key.lastUsedAt)}</td>
        <td class="state-${state}">${state}${key.revokedAt !== null ? html` <span class="hint">${time(key.revokedAt)}</span>` : ""}</td>
        <td>${
          key.revokedAt === null
            ? html`<a href="${BASE}/keys/${key.id}/revoke">Revoke<span class="visually-hidden"> ${key.name} (${key.prefix}…)</span></a>`
            : ""
        }</td>
      </tr>`;
    })}
    </tbody></table></div>`;
}

async function createForm(ctx: PageRequest, tier: string): Promise<SafeHtml> {
  const operator = ctx.signedIn.who === "operator";
  const production = ctx.guard.config.environment === "production";
  const tiers = [...ctx.guard.plans.keys()];
  return html`<form class="stack" method="post" action="${BASE}/keys" aria-labelledby="create-heading">
    ${csrfField(ctx.csrf)}
    <div class="field">
      <label for="key-name">Name</label>
      <input id="key-name" name="name" type="text" required maxlength="${NAME_MAX}" autocomplete="off"
        aria-describedby="key-name-hint">
      <span id="key-name-hint" class="hint">To recognise the key by, e.g. "laptop" or "ci".</span>
    </div>
    ${
      operator
        ? html`<div class="field">
      <label for="key-tier">Tier of the new account</label>
      <select id="key-tier" name="tier">${tiers.map((t) => html`<option value="${t}"${t === "free" ? " selected" : ""}>${t}</option>`)}</select>
    </div>
    <div class="field">
      <label for="key-account">Or add it to account <span class="hint">(optional)</span></label>
      <input id="key-account" name="account" type="text" autocomplete="off" placeholder="acct_…">
    </div>`
        : html`<p class="field"><span><strong>Tier:</strong> <span data-tier>${tier}</span></span>
      <span class="hint">Every key of an account shares its plan and quota.</span></p>`
    }
    ${
      production
        ? ""
        : html`<fieldset><legend>Kind</legend>
      <div class="field check"><input id="kind-live" type="radio" name="kind" value="live" checked><label for="kind-live">Live (<code>sph_live_</code>)</label></div>
      <div class="field check"><input id="kind-test" type="radio" name="kind" value="test"><label for="kind-test">Test (<code>sph_test_</code>, refused by production servers)</label></div>
    </fieldset>`
    }
    <div><button type="submit">Create key</button></div>
  </form>`;
}

async function viewerTier(ctx: PageRequest): Promise<string> {
  const session = ctx.signedIn;
  if (session.who === "operator") return "—";
  const account = await ctx.guard.store.accounts.getAccount(session.accountId ?? LOCAL_ACCOUNT_ID);
  return account ? accountTier(account, ctx.guard.config) : ctx.guard.config.localTier;
}

async function keysPage(ctx: PageRequest, top: SafeHtml | string = "", status = 200): Promise<Response> {
  const keys = await visibleKeys(ctx);
  const operator = ctx.signedIn.who === "operator";
  const tiers = await tiersOf(
    ctx,
    keys.map((k) => k.accountId),
  );
  const tier = await viewerTier(ctx);
  const body = html`${top}
    <p class="lead">Keys authenticate calls to the API (<code>Authorization: Bearer …</code>). A key is shown once, when it is created; only its prefix is kept to tell it apart.</p>
    <section aria-labelledby="create-heading">
      <h2 id="create-heading">Create a key</h2>
      ${await createForm(ctx, tier)}
    </section>
    <section aria-labelledby="list-heading">
      <h2 id="list-heading">${operator ? "All keys" : "Your keys"}</h2>
      ${keyTable(keys, tiers, operator)}
    </section>`;
  return ctx.page("API keys", "keys", body, status);
}

/** GET /dashboard/keys */
export async function showKeys(ctx: PageRequest): Promise<Response> {
  const revoked = ctx.url.searchParams.get("revoked");
  const key = revoked ? (await ctx.sessions.keysById()).get(revoked) : undefined;
  return keysPage(
    ctx,
    key
      ? notice(
          "ok",
          html`Key <strong>${key.name}</strong> (<code>${key.prefix}…</code>) is revoked: the API refuses it from now on.`,
        )
      : "",
  );
}

function shownOnce(created: NewKey, tier: string): SafeHtml {
  return html`<section class="panel notice warn" aria-labelledby="new-key-heading" role="status">
    <h2 id="new-key-heading">Key "${created.info.name}" created (${tier})</h2>
    <p><strong>Copy it now: it will not be shown again.</strong> siphon keeps only a hash of it; a lost key is revoked and replaced.</p>
    <div class="secret">
      <output id="new-key" aria-label="The new API key">${created.key}</output>
      <button type="button" class="secondary" data-copy="new-key" hidden>Copy key</button>
    </div>
  </section>`;
}

/** POST /dashboard/keys: creates a key and shows it once. */
export async function createKey(ctx: PageRequest): Promise<Response> {
  const session = ctx.signedIn;
  const name = ctx.field("name");
  const kind = ctx.field("kind") === "test" ? "test" : "live";
  const problem =
    !name || name.length > NAME_MAX
      ? `A key needs a name of 1 to ${NAME_MAX} characters.`
      : kind === "test" && ctx.guard.config.environment === "production"
        ? "This server runs in production, which refuses test keys: create a live key."
        : null;
  if (problem) return keysPage(ctx, notice("error", problem), 400);
  const now = ctx.guard.now();
  let created: NewKey;
  let tier: string;
  if (session.who === "operator") {
    const accountId = ctx.field("account");
    if (accountId) {
      const account = await ctx.guard.store.accounts.getAccount(accountId);
      if (!account) return keysPage(ctx, notice("error", `No account "${accountId}".`), 400);
      tier = accountTier(account, ctx.guard.config);
      created = await issueKey(ctx.guard.store.accounts, { accountId, name, kind, now });
    } else {
      tier = ctx.field("tier") || "free";
      if (!ctx.guard.plans.has(tier)) return keysPage(ctx, notice("error", `No tier "${tier}".`), 400);
      created = await createAccountWithKey(ctx.guard.store.accounts, { name, tier, kind, now });
    }
  } else {
    // The API's own principal: for the local account, created on first use as the API creates it.
    const principal = await ctx.sessions.principal(session);
    const accountId = principal?.account.id ?? LOCAL_ACCOUNT_ID;
    tier = principal?.plan.tier ?? (await viewerTier(ctx));
    created = await issueKey(ctx.guard.store.accounts, { accountId, name, kind, now });
  }
  return keysPage(ctx, shownOnce(created, tier), 201);
}

/** The key `:id` if the viewer may manage it. */
async function manageable(ctx: PageRequest): Promise<ApiKeyInfo> {
  const key = (await ctx.sessions.keysById()).get(ctx.params.id ?? "");
  const session = ctx.signedIn;
  if (!key || (session.who !== "operator" && key.accountId !== (session.accountId ?? LOCAL_ACCOUNT_ID)))
    throw pageNotFound("This key");
  return key;
}

/** GET /dashboard/keys/:id/revoke: asks before revoking. */
export async function confirmRevoke(ctx: PageRequest): Promise<Response> {
  const key = await manageable(ctx);
  if (key.revokedAt !== null) return ctx.redirect(`${BASE}/keys`);
  const own = ctx.signedIn.keyId === key.id;
  return ctx.page(
    "Revoke key",
    "keys",
    html`<div class="panel notice warn">
      <p>Revoke <strong>${key.name}</strong> (<code>${key.prefix}…</code>, created ${time(key.createdAt)})?
      Every request with it is refused from the next one on. This cannot be undone.</p>
      ${own ? html`<p><strong>You signed in with this key:</strong> revoking it signs you out.</p>` : ""}
    </div>
    <form method="post" action="${BASE}/keys/${key.id}/revoke" class="actions">
      ${csrfField(ctx.csrf)}
      <button type="submit" class="danger">Revoke ${key.name}</button>
      <a class="button secondary" href="${BASE}/keys">Cancel</a>
    </form>`,
  );
}

/** POST /dashboard/keys/:id/revoke */
export async function revoke(ctx: PageRequest): Promise<Response> {
  const key = await manageable(ctx);
  await revokeKey(ctx.guard.store.accounts, key.id, ctx.guard.now());
  return ctx.redirect(`${BASE}/keys?revoked=${encodeURIComponent(key.id)}`);
}
