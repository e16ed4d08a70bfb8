import { layout } from "./layout.ts";

/** How many cards the listing shows. */
export const LISTING_CARD_COUNT = 20;
/** Title of card number `n` (1-based). */
export function listingCardTitle(n: number): string {
  return `Weekend recipe #${n}: ${DISHES[(n - 1) % DISHES.length]}`;
}

const DISHES = ["Lemon risotto", "Miso aubergine", "Shakshuka", "Dal makhani", "Pumpkin gnocchi"];

/** An archive page of 20 repeated cards linking to /recipes/<n>, plus pagination. */
export function listingPage(): string {
  const cards = Array.from({ length: LISTING_CARD_COUNT }, (_, i) => {
    const n = i + 1;
    return `<li class="card">
      <a href="/recipes/${n}"><img src="/images/recipes/${n}.jpg" alt="" width="320" height="180"></a>
      <h3 class="card-title"><a href="/recipes/${n}">${listingCardTitle(n)}</a></h3>
      <p class="card-meta">${10 + n} minutes · Serves ${2 + (n % 4)}</p>
    </li>`;
  }).join("\n");
  const body = `<main class="archive">
  <h1>Recipe archive</h1>
  <p>Every recipe we have published, newest first.</p>
  <ul class="cards">
${cards}
  </ul>
  <nav class="pagination" aria-label="Pagination"><a href="/listing?page=2" rel="next">Next page</a></nav>
</main>`;
  return layout({ title: "Recipe archive | The Fixture Times", body });
}
