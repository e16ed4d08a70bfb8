import { layout } from "./layout.ts";

export const SERVICE_HEADLINE = "Ship invoices in minutes, not days";
/** One heading per section of the landing page; all must survive the default (non-main-only) extraction. */
export const SERVICE_SECTIONS = ["Features", "Pricing", "Frequently asked questions"] as const;
/** A FAQ answer that must survive extraction. */
export const SERVICE_FAQ_ANSWER =
  "Yes, you can cancel any time and keep access until the end of the billing period.";

/** A SaaS landing page: hero, features, pricing tiers and FAQ, each its own section. */
export function servicePage(): string {
  const body = `<main>
  <section class="hero">
    <h1>${SERVICE_HEADLINE}</h1>
    <p>Invoicely turns your time sheets into invoices and chases late payments for you.</p>
    <a class="cta button" href="/signup">Start free trial</a>
  </section>
  <section id="features" class="features">
    <h2>${SERVICE_SECTIONS[0]}</h2>
    <div class="feature"><h3>Automatic reminders</h3><p>Polite emails go out 3, 7 and 14 days after the due date.</p></div>
    <div class="feature"><h3>Multi-currency</h3><p>Bill in 40 currencies with daily exchange rates.</p></div>
    <div class="feature"><h3>Accounting sync</h3><p>Two-way sync with the accounting tools you already use.</p></div>
  </section>
  <section id="pricing" class="pricing">
    <h2>${SERVICE_SECTIONS[1]}</h2>
    <div class="tier"><h3>Solo</h3><p class="price">$9/month</p><ul><li>1 user</li><li>50 invoices a month</li></ul></div>
    <div class="tier featured"><h3>Team</h3><p class="price">$29/month</p><ul><li>10 users</li><li>Unlimited invoices</li></ul></div>
    <div class="tier"><h3>Enterprise</h3><p class="price">Contact us</p><ul><li>SSO and audit log</li><li>Dedicated support</li></ul></div>
  </section>
  <section id="faq" class="faq">
    <h2>${SERVICE_SECTIONS[2]}</h2>
    <details open><summary>Can I cancel my subscription?</summary><p>${SERVICE_FAQ_ANSWER}</p></details>
    <details><summary>Do you offer discounts for non-profits?</summary><p>Non-profits get 50% off every plan.</p></details>
  </section>
</main>`;
  return layout({ title: "Invoicely – invoicing for freelancers", body });
}
