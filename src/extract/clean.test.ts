import { describe, expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

/** A page's markdown in one mode, images left out. */
const markdownOf = (html: string, url: string, onlyMainContent: boolean): string =>
  extractHtml(html, url, { format: "markdown", onlyMainContent, images: false }).content;

const page = `<!doctype html><html><head><title>Tides</title><style>.x{color:red}</style></head><body>
<header class="site-header"><a href="/">Coastal Times</a><nav><a href="/news">News</a><a href="/sport">Sport</a></nav></header>
<div id="cookie-consent">We use cookies to improve your experience. <button>Accept all</button></div>
<main>
  <article>
    <header><h1>Why the tides are changing</h1><p class="byline">By Ana Reyes</p></header>
    <p>Sea levels along the northern coast rose faster this decade than in any decade on record, researchers said.</p>
    <div class="share-buttons"><a href="https://facebook.com/share">Share on Facebook</a><a href="https://x.com/share">Post</a></div>
    <p>The team measured tide gauges at forty harbours and compared them with satellite altimetry.</p>
    <div style="display:none">Subscribe to unlock this secret offer</div>
    <p hidden>Hidden teaser text</p>
    <script>window.tracking = "SCRIPT_TEXT";</script>
    <noscript>Please enable JavaScript</noscript>
  </article>
  <section><h2>Methods</h2><p>Gauges were calibrated against a reference benchmark every spring.</p></section>
  <div class="ad-slot">Buy cheap flights now</div>
</main>
<footer class="site-footer"><p>© 2024 Coastal Times. All rights reserved.</p><a href="/privacy">Privacy</a></footer>
</body></html>`;

describe("default mode cleaning", () => {
  const { content } = extractHtml(page, "https://news.example/tides", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });

  test("keeps the article paragraphs and every content section", () => {
    expect(content).toContain("Sea levels along the northern coast rose faster");
    expect(content).toContain("compared them with satellite altimetry");
    expect(content).toContain("Methods");
    expect(content).toContain("Gauges were calibrated");
  });

  test("keeps the article's own header (title and byline)", () => {
    expect(content).toContain("Why the tides are changing");
    expect(content).toContain("By Ana Reyes");
  });

  test("drops site navigation, header and footer chrome", () => {
    expect(content).not.toContain("Sport");
    expect(content).not.toContain("Coastal Times");
    expect(content).not.toContain("All rights reserved");
  });

  test("drops cookie banners, share widgets and ads", () => {
    expect(content).not.toContain("We use cookies");
    expect(content).not.toContain("Share on Facebook");
    expect(content).not.toContain("Buy cheap flights");
  });

  test("drops scripts, styles, noscript warnings and hidden elements", () => {
    expect(content).not.toContain("SCRIPT_TEXT");
    expect(content).not.toContain("color:red");
    expect(content).not.toContain("enable JavaScript");
    expect(content).not.toContain("secret offer");
    expect(content).not.toContain("Hidden teaser");
  });
});

test("a wrapper named like a widget but holding the article is kept", () => {
  const long = "This paragraph is the article itself and it goes on for a while. ".repeat(30);
  const html = `<body><div class="social-wrapper"><p>${long}</p></div></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("This paragraph is the article itself");
});

test("noscript content served to script-less clients is kept", () => {
  const post = "A forum reply long enough to be real content rather than a warning message. ".repeat(4);
  const html = `<body><div id="app"></div><noscript><div class="post"><p>${post}</p></div></noscript></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("A forum reply long enough");
});

test("a bare <nav> and ARIA navigation landmarks are dropped wherever they sit", () => {
  const html = `<body><div><nav><a href="/p">Products</a> <a href="/pricing">Pricing</a></nav>
    <div role="navigation"><a href="/docs">Documentation home</a></div>
    <p>The actual body text of the page.</p></div></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toBe("The actual body text of the page.");
});

test("skip links go, MediaWiki's jump links too", () => {
  // MediaWiki's layout: the jump links sit between the page's title and its text.
  const html =
    '<body><div id="content" class="mw-body" role="main"><h1 id="firstHeading">Performance Optimization</h1>' +
    '<div id="bodyContent"><div id="siteSub">From PostgreSQL wiki</div><div id="jump-to-nav"></div>' +
    '<a href="#column-one" class="mw-jump-link">Jump to navigation</a><a href="#searchInput" class="mw-jump-link">Jump to search</a>' +
    '<a class="skip-link" href="#mw-content-text">Skip to content</a>' +
    '<div id="mw-content-text"><p>How to tune a database server: shared buffers first, then the planner costs.</p>' +
    "<p>Measure before and after each change.</p></div></div></div>" +
    '<div id="column-one" role="navigation"><a href="/wiki/Main">Main page</a><input id="searchInput"></div></body>';
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://wiki.example/Tuning", {
      format: "markdown",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("From PostgreSQL wiki\n\nHow to tune a database server");
    expect(content).not.toContain("Jump to");
    expect(content).not.toContain("Skip to");
  }
});

test("a cookie banner goes by what it says, whatever its class; a text about cookies stays", () => {
  const html = `<body><div class="page"><h1>Solar deployment grows</h1>
    <p>South Korea is seeing stronger than ever solar project deployment, according to data released in August by the ministry.</p>
    <p>Installers added more capacity in the third quarter than in the whole of the previous year, the data show.</p>
    <p>Sessions persist cookies across all requests made from one client, as the library's guide explains.</p>
    <p>We use cookies and cream for the filling, and bake the base for ten minutes.</p>
    <p>The banner asks visitors to accept cookies before the analytics script runs.</p></div>
    <div class="penci-wrap-gprd-law"><p>This website uses cookies to improve your experience. We'll assume you're ok with this, but you can opt-out if you wish. <a href="#">Accept</a></p></div>
    <div class="eupopup-container"><div class="eupopup-body">We use them to give you the best experience. If you continue using our website, we'll assume that you are happy to receive all cookies on this website.</div></div>
    <div class="pea_cook_wrapper"><p>This website uses cookies to anonymously count visitor numbers. <a href="/privacy">View our privacy policy.</a></p></div></body>`;
  const { content } = extractHtml(html, "https://news.example/solar", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("Sessions persist cookies across all requests");
  expect(content).toContain("We use cookies and cream for the filling");
  expect(content).toContain("The banner asks visitors to accept cookies");
  expect(content).not.toContain("improve your experience");
  expect(content).not.toContain("happy to receive all cookies");
  expect(content).not.toContain("anonymously count visitor numbers");
});

test("a cookie dialog goes however long it runs; a page about cookies named for them stays", () => {
  const kind = (name: string) =>
    `<h4>${name} cookies <label class="switch"><input type="checkbox"></label></h4><p>${`${name} cookies remember the choices a visitor makes on the platform and the pages they have seen, for up to a year. `.repeat(3)}</p>`;
  const dialog = `<div id="modal_cookie-consent" class="modal_"><div class="modal_content"><p>Our platform uses various types of cookies.</p>
    ${["Technical", "Analytics", "Marketing", "Social"].map(kind).join("")}<button>Save preferences</button></div></div>`;
  const html = `<body><main><h1>Pre-owned watches</h1><p>Every watch we sell is serviced, checked by our watchmakers and sold with a two-year warranty.</p>
    <p>Prices follow the market, and we buy watches outright or take them in part exchange.</p></main>${dialog}</body>`;
  for (const onlyMainContent of [true, false]) {
    const { content } = extractHtml(html, "https://watches.example/", {
      format: "text",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("Every watch we sell is serviced");
    expect(content).not.toContain("remember the choices");
  }
  const policy = `<body><div class="cookie-policy"><h1>Cookie policy</h1>${["Technical", "Analytics", "Marketing", "Social"].map(kind).join("")}</div></body>`;
  const { content } = extractHtml(policy, "https://watches.example/cookie-policy", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("Marketing cookies remember the choices");
});

test("a footer named inside a longer class token is chrome", () => {
  const html = `<body><div class="story"><p>The son of a former president was stabbed during a lecture at a Berlin clinic on Tuesday evening.</p></div>
    <div class="all-screen-footer-wrap"><p>All rights reserved to the publisher. Reproduction of any of the material on this site is forbidden without permission.</p></div></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("stabbed during a lecture");
  expect(content).not.toContain("All rights reserved");
});

test("share links are dropped by where they point, whatever their class", () => {
  const html = `<body><p>Stock car calendar for the season, round by round, with the tracks and the dates of each race.
    <a href="whatsapp://send?text=Calendar">Share this on WhatsApp</a> <a href="https://www.facebook.com/sharer/sharer.php?u=x">Post it</a>
    The venues are under <a href="https://example.com/tracks">All tracks</a>, with a map of each circuit.</p></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).not.toContain("WhatsApp");
  expect(content).not.toContain("Post it");
  expect(content).toContain("All tracks");
});

test("elements hidden by a utility class go, whatever their size, unless a breakpoint shows them", () => {
  const dump = "sku: 5001 retail_price_tier1: $20.00 cat_thumb: https://cdn.example/thumb.jpg ".repeat(40);
  const html = `<body><p>The staple tee, in a regular fit, made from mid-weight combed cotton with double needle hems.</p>
    <dl class="product-info hide"><dt>data</dt><dd>${dump}</dd></dl><span class="sr-only">Opens in a new window</span>
    <div class="hidden md:flex"><p>Free returns within thirty days on every order, no questions asked.</p></div></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("staple tee");
  expect(content).not.toContain("retail_price_tier1");
  expect(content).not.toContain("Opens in a new window");
  expect(content).toContain("Free returns within thirty days");
});

test("text for screen readers only goes by each framework's class, so a shop's price is printed once", () => {
  const html = `<body><main><h1>Sponge set for B402 vacuums</h1>
    <p>Twenty-four pieces: filters, sponges and brushes that fit the whole B402 range of cordless vacuums.</p>
    <div class="price"><span aria-hidden="true">EUR 20.99</span><span class="clipped">EUR 20.99</span></div>
    <span class="a-price"><span class="a-offscreen">$22.50</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">22<span class="a-price-decimal">.</span></span><span class="a-price-fraction">50</span></span></span>
    <h2 class="element-invisible">Main menu</h2><span class="visuallyhidden">(opens in a new tab)</span>
    <span class="assistive-text">Skip to primary content</span><span class="show-for-sr">Close dialog</span>
    <span class="u-visually-hidden">Rated 4 of 5</span><span class="hidden-visually">Opens a map</span><span class="screen-reader-only">Next slide</span>
    <p>Reviewers say: <span class="clipped">the sponges fit the housing well, hold their shape after many washes in warm water, and the two brushes reach every corner of the roller.</span></p>
    <div class="description clipped"><p>The sponges are cut to the filter housing of every B402 model and can be washed by hand forty times.</p></div>
    <div class="slide offscreen"><p>Also in the box: two crevice brushes and a cleaning tool for the roller.</p></div></main></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://shop.example/sponges", {
      format: "text",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("fit the whole B402 range");
    expect(content.match(/EUR 20\.99/g)).toHaveLength(1);
    expect(content.match(/\$22\.50/g)).toHaveLength(1);
    for (const hidden of [
      "Main menu",
      "opens in a new tab",
      "Skip to primary",
      "Close dialog",
      "Rated 4",
      "Opens a map",
      "Next slide",
    ])
      expect(content).not.toContain(hidden);
    // "clipped" and "offscreen" also name a truncated description or a slide: a block of text stays.
    expect(content).toContain("washed by hand forty times");
    expect(content).toContain("the two brushes reach every corner");
    expect(content).toContain("two crevice brushes");
  }
});

test("an inactive tab panel is kept: its text is the page's, a click away", () => {
  const html = `<body><main><h1>Trailhead backpack</h1><div role="tablist"><button>Description</button><button>Specifications</button></div>
    <div role="tabpanel"><p>A light day pack for long hikes with a ventilated back panel.</p></div>
    <div role="tabpanel" hidden><table><tr><th>Volume</th><td>28 litres</td></tr><tr><th>Weight</th><td>980 g</td></tr></table></div>
    <div class="tab-pane hidden"><p>Hand wash in cold water with a mild soap.</p></div></main></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("28 litres");
  expect(content).toContain("Hand wash in cold water");
});

test("a hidden BEM tab panel (tab__content) is kept like a role=tabpanel one", () => {
  const html = `<body><main><h1>Security services</h1><p>We protect what you build, from policy to the help desk.</p>
    <div class="tabs"><button>Governance</button><button>Identity</button>
    <div class="tab__content"><p>Governance sets the policies every team follows.</p></div>
    <div class="tab__content" hidden><p>Identity services we run:</p><ul><li>Access reviews every quarter</li><li>Single sign-on rollout</li></ul></div></div></main></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("Access reviews every quarter");
});

test("tabs of sections are content even when their ids say menu", () => {
  const intro =
    "<p>Our consultants secure networks, clouds and the factory floor for companies of every size.</p>".repeat(
      8,
    );
  const html = `<body><main><h1>Security services</h1>${intro}
    <div class="filter-tabs" id="filter-menu-tabs-1"><div role="tablist"><button>Cloud</button><button>Factory</button></div>
    <div role="tabpanel" id="filter-menu-tabs-1-item-1"><div class="filter-menu-item"><h3>Cloud posture</h3><p>We audit cloud accounts against your own baseline.</p></div></div>
    <div role="tabpanel" id="filter-menu-tabs-1-item-2"><div class="filter-menu-item"><h3>Factory networks</h3><p>Operational networks get segmented and watched around the clock.</p></div></div></div>
    </main><nav class="menu"><a href="/a">About</a><a href="/b">Careers</a></nav></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("audit cloud accounts");
  expect(content).toContain("segmented and watched");
  expect(content).not.toContain("Careers");
});

test("aria-hidden text stays (it is on screen), but a closed aria-hidden drawer goes", () => {
  const html = `<body><main><h1>Walking boots</h1>
    <div class="card"><h2>Ridge mid boot</h2><i aria-hidden="true" class="stars"><span>4.7 out of 5 stars</span></i><span>$180</span></div>
    <div class="card"><h2>Valley low shoe</h2><i aria-hidden="true" class="stars"><span>4.2 out of 5 stars</span></i><span>$140</span></div>
    <div class="card"><h2>Trail sandal</h2><p>Rated <span aria-hidden="true">★★★★☆</span><span class="sr-only">4 out of 5</span> by walkers <span aria-hidden="true">&#x2192;</span></p></div></main>
    <aside aria-hidden="true" class="bag"><h2>Shopping bag</h2><p>Subtotal</p><p>Taxes and shipping calculated at checkout</p></aside></body>`;
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("4.7 out of 5 stars");
  // Stars drawn as text are read too; a wordless symbol (an arrow) is not.
  expect(content).toMatch(/Rated ★★★★☆ by walkers$/);
  expect(content).not.toContain("Taxes and shipping");
});

test("a chapter's table of contents, listing its pages, stays; an on-this-page box of anchors goes", () => {
  const sections = ["Introduction", "Index Types", "Multicolumn Indexes", "Unique Indexes"];
  const chapter = sections
    .map((s, i) => `<li><a href="indexes-${i}.html">11.${i + 1}. ${s}</a></li>`)
    .join("");
  const onPage = ["B-Tree", "Hash", "GiST", "GIN"]
    .map((s) => `<li><a href="#${s}">Anchor ${s}</a></li>`)
    .join("");
  const html = `<body><main><h1>Chapter 11. Indexes</h1>
    <div class="toc"><p><strong>Table of Contents</strong></p><ul>${chapter}</ul></div>
    <p>Indexes are a common way to enhance database performance, and this chapter explains each kind.</p>
    <h2>Index Types</h2><div class="toc"><ul>${onPage}</ul></div>
    <p>PostgreSQL provides several index types, each suited to different kinds of queries and data.</p></main></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://docs.example/indexes.html", {
      format: "text",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("11.3. Multicolumn Indexes");
    expect(content).not.toContain("Anchor GiST");
    expect(content).toContain("PostgreSQL provides several index types");
  }
});

test("dialogs, flyouts, tooltips and toasts named by class are chrome in both modes", () => {
  const html = `<body><main><h1>ThinkPad P16s</h1>
    <p>A mobile workstation with a 16 inch display, certified for engineering and design applications.</p>
    <div class="dialog_container"><span>Add items to your cart?</span><p>We've noticed that you've entered a different store. Do you want to add these items?</p></div>
    <div class="flyout-panel">Compare up to four models side by side</div>
    <span class="price-tooltip">Price excludes taxes and delivery charges</span>
    <div class="toast">Item added to your wish list</div></main></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://shop.example/p16s", {
      format: "text",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("mobile workstation");
    for (const chrome of ["entered a different store", "Compare up to four", "excludes taxes", "wish list"])
      expect(content).not.toContain(chrome);
  }
});

test("a modal's copy in the page (a heading over prose, no control) stays with its parts; a dialog goes", () => {
  // A shop renders the details its dialog shows in the page too, for readers without scripts; the
  // parts carry the panel's name (BEM: "details-modal__paragraph").
  const html = `<body><main><h1>KALLAX Shelf unit</h1>
    <p>Standing or lying, the series adapts to taste, space and budget. Personalize it with inserts.</p>
    <div class="pip-product-details-modal"><h2 class="pip-product-details-modal__title">Product details</h2>
      <div class="pip-product-details-modal__container"><p class="pip-product-details-modal__paragraph">The simple design with clean lines makes the shelf flexible and easy to use at home.</p>
      <p class="pip-product-details-modal__paragraph">Choose whether to place it standing as a shelving unit or lying as a sideboard.</p></div></div>
    <div class="stores-modal"><h2>Find your store</h2><p>Enter a ZIP code to see the stock in the stores near you, their opening hours today and the pick-up times.</p><button>Close</button></div>
    <div class="video-modal"><p>Watch how the shelf unit goes together in under twenty minutes, step by step.</p></div>
    <div class="newsletter-modal"><h2>Stay in the loop</h2><p>Sign up for our letters and get decorating tips and a discount code for your first order with us.</p></div>
    </main>
    <div class="details-modal"><h2>Product details</h2><p>The simple design of the shelf unit makes it easy to use in the hallway and the living room.</p></div></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://shop.example/p/kallax", {
      format: "markdown",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("## Product details");
    expect(content).toContain("The simple design with clean lines");
    expect(content).toContain("lying as a sideboard");
    // A modal with a control is a dialog; one with no heading, another junk word, or outside the
    // main area is no section.
    for (const chrome of ["opening hours", "under twenty minutes", "discount code", "hallway"])
      expect(content).not.toContain(chrome);
  }
  // A panel holding most of a short page's text is kept for its size: its parts stay with it too.
  const short = `<body><main><h1>KALLAX</h1><div class="details-modal"><h2 class="details-modal__title">Product details</h2>
    <p class="details-modal__text">The simple design with clean lines makes the shelf flexible and easy to use at home, standing or lying.</p></div></main></body>`;
  const { content } = extractHtml(short, "https://shop.example/p/kallax", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("## Product details");
  expect(content).toContain("easy to use at home");
});

test("a drawer holding a section (a heading over prose or a data table) stays; menu and cart drawers go", () => {
  const rows = ["Antiques", "Art", "Office moving"]
    .map((s, i) => `<tr><td>${s}</td><td>${80 + i}</td></tr>`)
    .join("");
  const html = `<body><main><h1>Movers in New York</h1>
    <p>We compared the movers of the state on cost, services and what their customers say about them.</p>
    <div class="dice-drawer"><h3>Specialty services offered</h3><table><thead><tr><th>Service</th><th>NY movers</th></tr></thead><tbody>${rows}</tbody></table></div>
    <div class="dice-drawer"><h3>How is the weight of my move determined?</h3><p>Movers weigh the truck before and after loading it with your things; the difference is your shipment's weight.</p></div>
    <div class="cart-drawer"><h2>Your cart</h2><p>Your cart is empty.</p><a href="/collections">Continue shopping</a></div>
    <div class="drawer"><h2>Browse</h2><ul><li><a href="/a">Local movers</a></li><li><a href="/b">Long distance</a></li></ul></div>
    <div class="popup-drawer"><h2>Stay in the loop</h2><p>Sign up for our letters and get moving tips, checklists and a discount code for your first move with us.</p></div>
    <div class="mini-drawer"><p>You are only $23.00 away from free shipping! Orders over $75 ship free to every state, boxes included.</p></div>
    </main>
    <div class="side-drawer"><h2>Your bag</h2><p>You are only $23.00 away from free shipping! Orders over $75 ship free, and returns are free for thirty days.</p></div></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://movers.example/ny", {
      format: "text",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("Office moving");
    expect(content).toContain("the difference is your shipment's weight");
    // A drawer with prose but no heading, or outside the main area, is not a section.
    for (const chrome of [
      "Your cart is empty",
      "Continue shopping",
      "Long distance",
      "discount code",
      "free shipping",
    ])
      expect(content).not.toContain(chrome);
  }
});

test("a player's or a gallery's controls go in both modes, labels and all; a section about controls stays", () => {
  const html = `<body><main><h1>Esper accuses China of intimidating smaller nations</h1>
    <div class="gallery"><img src="/esper.jpg" alt="Esper in Hanoi"><div class="control-bar"><span class="nav-stats">Image 1 of 8</span>
      <div class="captionlink"><p class="open">Caption</p><p class="close">Close</p></div></div></div>
    <p>Defense Secretary Mark Esper accused China on Wednesday of using intimidation to advance its interests in the region.</p>
    <div class="carousel"><div class="slide"><p>Esper met his counterpart in the capital for two hours of talks on the sea.</p></div>
      <div class="carousel-controls"><span>Previous</span><span>Next</span></div></div>
    <div class="audio-player-controls"><span>8-Minute Listen</span><span>Playlist</span></div>
    <h2><span class="mw-headline" id="Controls">Controls</span></h2><p>The left stick steers the boat; the right trigger casts the net.</p>
    <section id="access-controls"><h2>Access controls</h2><p>Every request to the archive is checked against the reader's subscription.</p></section>
    </main></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://news.example/esper", {
      format: "text",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("accused China on Wednesday");
    expect(content).toContain("two hours of talks");
    // "Controls" naming a section, not a set of buttons, stays.
    expect(content).toContain("Controls\n\nThe left stick steers the boat");
    expect(content).toContain("Access controls\n\nEvery request to the archive");
    for (const control of [
      "Image 1 of 8",
      "Caption",
      "Close",
      "Previous",
      "Next",
      "Minute Listen",
      "Playlist",
    ])
      expect(content).not.toContain(control);
  }
});

test("bare UUIDs scrambling a heading's text go; a UUID in a table cell or in code stays", () => {
  const html = `<body><main><h2>Similar <span class="a1">items</span><span class="f12a26fc-61f0-4e2b-9d3c-2a1b3c4d5e6f">303097ac-d3e5-41e1-baf5-303640756ebf</span></h2>
    <p>Three tops in black, white and green, size 6, worn once and washed before sending.</p>
    <table><tr><th>Key</th><td>511e4748-1bce-40c8-9c69-f944ec710640</td></tr></table>
    <p>Call <code>8eaedc9a-fffb-4d31-b369-f888e1af8ca0</code> to fetch it.</p></main></body>`;
  const { content } = extractHtml(html, "https://shop.example/item/1", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("Similar items");
  expect(content).not.toContain("303097ac");
  expect(content).toContain("511e4748-1bce-40c8-9c69-f944ec710640");
  expect(content).toContain("8eaedc9a-fffb-4d31-b369-f888e1af8ca0");
});

test("a JSON document as a block's whole text goes; JSON in code, a cell or a sentence stays", () => {
  const offers = JSON.stringify({
    buybox_group_1: [
      { displayPrice: "EUR 15.49", priceAmount: 15.49, offerListingId: "YUNSboLuc33HfSyeV9zP54J" },
    ],
  });
  const example =
    '{"name": "Azure Rocks", "input": "sample queue data", "retries": 3, "ok": true, "region": "westeurope"}';
  const html = `<body><main><h1>Atomic Habits</h1>
    <div class="a-section aok-hidden price-data">${offers}</div>
    <span class="state">[{"step":1,"seen":false},{"step":2,"seen":false},{"step":3,"seen":true},{"step":4,"seen":true}]</span>
    <p>An easy and proven way to build good habits and break bad ones, in twenty short chapters.</p>
    <pre>${example}</pre>
    <p><code>${example}</code></p>
    <table><tr><th>Body</th><td>${example}</td></tr></table>
    <p>Send <span>{"ok": true}</span> back, or the body below.</p>
    <p>[Editor's note: this review was updated in March after the publisher sent a corrected edition.]</p>
    <div>[4, 8, 15, 16, 23, 42, 108, 4, 8, 15, 16, 23, 42, 108, 4, 8, 15, 16, 23, 42, 108, 4, 8, 15]</div>
  </main></body>`;
  for (const onlyMainContent of [true, false]) {
    const content = markdownOf(html, "https://shop.example/dp/0735211299", onlyMainContent);
    expect(content).toContain("twenty short chapters");
    expect(content).not.toContain("priceAmount");
    expect(content).not.toContain('"step"');
    expect(content).toContain("```\n" + example + "\n```");
    expect(content).toContain("`" + example + "`");
    expect(content.split("Azure Rocks").length).toBe(4);
    expect(content).toContain('Send {"ok": true} back');
    expect(content).toContain("Editor's note");
    expect(content).toContain("[4, 8, 15, 16, 23, 42, 108");
  }
});

test("a doc generator's permalink anchors are dropped; footnote marks and same-page links with words stay", () => {
  const html = `<html><body><main>
    <h1>Quickstart<a class="headerlink" href="#quickstart" title="Link to this heading">¶</a></h1>
    <h2 id="install"><a class="hash-link" href="#install" aria-label="Direct link to Install">&#8203;</a>Install</h2>
    <h3><a class="anchor" href="#usage"><svg viewBox="0 0 16 16"><path d="M0 0h16"></path></svg></a>Usage</h3>
    <h4>Errors <a href="#errors">§</a> and <a href="#errors">#</a></h4>
    <dl><dt id="run">run()<a class="headerlink" href="#run">¶</a></dt><dd>Runs the app.</dd></dl>
    <p>Tides rise<a href="#fn1">1</a> and fall<a href="#fn2">*</a> twice a day<a href="#fn3">†</a>, see <a href="#methods">Methods</a>.</p>
    <p><a href="#gallery"><img src="/tide.png" alt="A tide chart"></a></p>
  </main></body></html>`;
  const { content } = extractHtml(html, "https://docs.example/quickstart", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("# Quickstart\n");
  expect(content).toContain("## Install\n");
  expect(content).toContain("### Usage\n");
  expect(content).toContain("#### Errors and\n");
  expect(content).toContain("**run()**\n: Runs the app.");
  expect(content).not.toMatch(/[¶§]|\u200b/);
  expect(content).toContain("Tides rise1 and fall* twice a day†, see Methods.");
  expect(content).toContain("![A tide chart](https://docs.example/tide.png)");
});

test("links that go nowhere with a few words are controls and are dropped; a headline or a picture stays", () => {
  const html = `<html><body><main>
    <p>Fry the chicken twice for a crisp crust.</p>
    <div class="actions"><a href="#" class="reply">Reply</a> <a href="#">Add a comment</a> <a href="javascript:void(0)">Show more</a> <a href="JavaScript:share()">Share it now</a></div>
    <h3><a href="#">How the council voted on the riverside solar farm</a></h3>
    <p><a href="#"><img src="/farm.jpg" alt="The solar farm"></a></p>
    <p>To see the map, click <a href="#">here</a> or <a href="javascript:zoom()">zoom in</a>, then scroll.</p>
    <p>Posted 3 May · <a href="#">Like</a> · <a href="#">Share</a></p>
  </main></body></html>`;
  const { content } = extractHtml(html, "https://news.example/story", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  for (const control of ["Reply", "Add a comment", "Show more", "Share it now", "Like", "Share"])
    expect(content).not.toContain(control);
  // Words of the sentence around them stay, as text.
  expect(content).toContain("To see the map, click here or zoom in, then scroll.");
  expect(content).toContain("### How the council voted on the riverside solar farm");
  expect(content).toContain("![The solar farm](https://news.example/farm.jpg)");
  expect(content).toContain("Fry the chicken twice");
});

test("a link without an address or an element drawn as a button is a control; one without the role, with a question's words or opening a part it names stays", () => {
  const html = `<html><body><main>
    <p>Fry the chicken twice for a crisp crust.</p>
    <div class="card"><a href="/recipes/fried-chicken">Fried chicken</a><div role="button" tabindex="0"><svg viewBox="0 0 10 10"></svg><div>Add to wishlist</div></div></div>
    <div class="accordion"><div role="button" tabindex="0" aria-expanded="false"><h3>Undergraduate</h3></div><div role="region"><p>Part-time rate below twelve hours.</p></div>
      <div role="button" tabindex="0" aria-expanded="false">Graduate</div><div role="region"><p>One rate for every course.</p></div></div>
    <blockquote><div><a href="/goto/post?id=1">cook said:</a></div><div>Rest it first.</div>
      <div class="bbCodeBlock-expandLink"><a role="button" tabindex="0">Click to expand...</a></div></blockquote>
    <p>I rest it for ten minutes.</p>
    <div class="faq"><a role="button" tabindex="0">How long should the chicken rest after frying?</a></div>
    <p><a name="notes" id="notes">Cook's notes</a> keep for a week.</p>
  </main></body></html>`;
  const { content } = extractHtml(html, "https://forum.example/threads/1", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  expect(content).not.toContain("Click to expand");
  expect(content).not.toContain("wishlist");
  expect(content).toContain("Fried chicken");
  expect(content).toContain("### Undergraduate");
  expect(content).toContain("Graduate\n\nOne rate for every course.");
  expect(content).toContain("Rest it first.");
  expect(content).toContain("How long should the chicken rest after frying?");
  expect(content).toContain("Cook's notes keep for a week.");
});

test("a drop-down list goes with its label; other labels stay", () => {
  const html = `<html><body><main>
    <h2>2 Answers</h2><div><label for="answer-sort">Sorted by:</label><select id="answer-sort"><option>Highest score</option></select></div>
    <label>Size: <select name="size"><option>M</option></select></label>
    <p>Fry the chicken twice for a crisp crust, and rest it on a rack.</p>
    <p><label for="notes">Cook's notes</label> Keep the oil at 170 degrees.</p>
  </main></body></html>`;
  const { content } = extractHtml(html, "https://qa.example/q/1", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  expect(content).not.toContain("Sorted by");
  expect(content).not.toContain("Size:");
  expect(content).toContain("Cook's notes Keep the oil at 170 degrees.");
  expect(content).toContain("Fry the chicken twice");
});

test("an ad slot's lone label goes; the word inside a sentence, a heading or a cell stays", () => {
  const html = `<body><main><article><h1>Harbour reopens</h1>
    <p>The harbour reopened on Monday after a month of dredging works along the eastern quay.</p>
    <div class="slot-7"><span>Advertisement</span></div>
    <p>Fishing boats returned first, followed by the ferry to the islands at noon.</p>
    <div>ANZEIGE</div>
    <p>Iklan</p>
    <p>The council paid for the works with a grant meant for <span>advertisement</span> boards, critics said.</p>
    <h2>Advertisement</h2><p>Local firms may place notices on the quay's new boards from next month.</p>
    <table><tr><th>Kind</th><td>Advert</td></tr></table>
  </article></main></body>`;
  const { content } = extractHtml(html, "https://news.example/harbour", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("followed by the ferry");
  expect(content).not.toMatch(/ANZEIGE|Iklan/);
  // Only the heading's line is left of the two.
  expect(content.match(/^Advertisement$/gm)).toHaveLength(1);
  expect(content).toContain("Advertisement\n\nLocal firms may place notices");
  expect(content).toContain("meant for advertisement boards");
  expect(content).toContain("Kind\tAdvert");
});

test("a copyright block or colophon outside the article goes, as a footer does", () => {
  const html = `<body><div class="page"><h1>Harbour reopens</h1>
    <p>The harbour reopened on Monday after a month of dredging works along the eastern quay.</p>
    <p>Fishing boats returned first, followed by the ferry to the islands at noon on Tuesday.</p>
    <div class="copyright-wrap"><p>The contents of this site are ©2019 Harbour Publishing Corp., a subsidiary of Quay Media Holdings.</p></div>
    <div id="colophon"><p>Harbour Times, 12 Quay Street, Portsmouth, is published every weekday morning except holidays.</p></div>
  </div></body>`;
  for (const onlyMainContent of [true, false]) {
    const { content } = extractHtml(html, "https://news.example/harbour", {
      format: "text",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("followed by the ferry");
    expect(content).not.toContain("Harbour Publishing Corp");
    expect(content).not.toContain("12 Quay Street");
  }
});

test("a short notice that the page needs JavaScript goes; a text about JavaScript stays", () => {
  const html = `<body><main><article><h1>Bike and style</h1>
    <p>The book pairs each ride with a playlist, and the soundtrack is better than you would expect.</p>
    <div class="slideshow-window"><p>This slideshow requires JavaScript.</p></div>
    <p>Please enable JavaScript to view the <a href="https://disqus.com/?ref_noscript">comments powered by Disqus.</a></p>
    <p>Our reviewer found that the shop's site requires JavaScript for its basket, which made ordering from an old phone a chore for a whole afternoon.</p>
    <p>At £40 it makes a fine present for any rider who likes music on the road.</p>
  </article></main></body>`;
  for (const onlyMainContent of [true, false]) {
    const { content } = extractHtml(html, "https://bikes.example/review", {
      format: "text",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("fine present for any rider");
    expect(content).not.toContain("This slideshow requires JavaScript");
    expect(content).not.toContain("Please enable JavaScript");
    expect(content).toContain("the shop's site requires JavaScript for its basket");
  }
});

test("an icon font's icon names are not text; words in an element of that class and the word 'close' elsewhere stay", () => {
  const html = `<html><body><main><h1>Offers</h1>
    <p>Spring brings savings across the range of home gyms and treadmills this month.</p>
    <a href="/sale"><i class="material-icons">local_offer</i> Spring Sale</a>
    <a href="/blog"><span class="icon material-symbols-rounded">chevron_left</span> Browse all posts</a>
    <p>Read the guide <mat-icon>arrow_forward</mat-icon> then close the door and rest.</p>
    <p><span class="material-icons-outlined">Not an icon name, a sentence.</span></p>
  </main></body></html>`;
  for (const format of ["markdown", "text"] as const) {
    const out = extractHtml(html, "https://shop.example/", {
      format,
      onlyMainContent: false,
      images: false,
    }).content;
    expect(out).not.toMatch(/local_offer|chevron_left|arrow_forward/);
    expect(out).toContain("Spring Sale");
    expect(out).toContain("Browse all posts");
    expect(out).toContain("then close the door");
    expect(out).toContain("Not an icon name, a sentence.");
  }
});

test("an icon drawn as a character goes; stars, symbols in code or a cell and icons with words stay", () => {
  const html = `<html><body><main><h1>Your content</h1>
    <details open><summary><h3>Launch fast</h3><div class="circle-btn"><div class="button-icon cc-arrow-right">→</div><div class="button-icon cc-arrow-up-right">↗</div><div class="button-icon cc-play">►</div></div></summary>
    <p>Quickly launch and keep iterating on content in the visual canvas of the editor.</p></details>
    <h3>Questions<span class="accordion-icon">+</span></h3><p>Answers follow below <i class="icon-close">×</i> for every plan.</p>
    <p>Rated <span class="star-icon">★</span> 4.6 by readers; <span class="icon-label">New</span> this week; marks <span class="icons-legend">© ® ™ ℗ ℠</span> explained; from <i class="icon-currency">€</i>19.</p>
    <p>Press <kbd class="search-icon">/</kbd> to search, then <code class="icon">→</code> to pick a result.</p>
    <table><tr><th>Trend</th><td class="trend-icon">↑</td></tr><tr><th>Rank</th><td>2</td></tr></table>
  </main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    const md = markdownOf(html, "https://builder.example/cms", onlyMainContent);
    expect(md).not.toMatch(/[↗►+×]/);
    expect(md).toContain("### Launch fast\n\nQuickly launch");
    expect(md).toContain("### Questions\n\nAnswers follow below for every plan.");
    expect(md).toContain("Rated ★ 4.6 by readers; New this week; marks © ® ™ ℗ ℠ explained; from €19.");
    expect(md).toContain("Press / to search, then `→` to pick a result.");
    expect(md).toContain("| Trend | ↑ |");
  }
});

test("zero-width characters alone are no text: a spacer paragraph leaves no line; joined emoji stay", () => {
  const html = `<html><body><main><h1>Benchmarks</h1><p>\u200d</p>
    <p>Nethermind leads in both real-mainnet and high-pressure tests, the gap widening under load.</p><p>\u200b \ufeff</p>
    <p>Family: \u{1f468}\u200d\u{1f469}\u200d\u{1f467} and a<span>\u200b</span>word, all of them sitting together at the table.</p></main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    const md = markdownOf(html, "https://blog.example/bench", onlyMainContent);
    expect(md).toBe(
      "# Benchmarks\n\nNethermind leads in both real-mainnet and high-pressure tests, the gap widening under load.\n\nFamily: \u{1f468}\u200d\u{1f469}\u200d\u{1f467} and aword, all of them sitting together at the table.",
    );
  }
});

test("a display-none utility class hides, behind a prefix too; one that hides in one medium only does not", () => {
  const html = `<html><body><main><h1>Answer</h1>
    <p>Former engineer<span class="q-box qu-display--none"> · </span> at Big Tech<span class="display-none">(draft)</span>, author of<span class="bbccom_display_none"> advert</span> many answers.</p>
    <p>Printed <span class="display-none-print">on screen only</span> and <span class="display-none-desktop">on phones</span>, <span class="qu-visibility--hidden">unseen</span><span class="qu-overflow--hidden">clipped</span> too.</p></main></body></html>`;
  const md = markdownOf(html, "https://answers.example/q/1", false);
  expect(md).toContain("Former engineer at Big Tech, author of many answers.");
  expect(md).toContain("Printed on screen only and on phones, clipped too.");
  // The whole answer a click on "(more)" reveals is the page's text, as with an inline display:none.
  const sentence = "The Italian campaign was a long, bloody mess that the series covers day by day. ";
  const answer = `<html><body><main><h1>Answer</h1><div class="q-box qu-display--none">${`<p>${sentence.repeat(4)}</p>`.repeat(4)}</div>
    <div class="q-box"><p>The Italian campaign was a long, bloody mess (more)</p></div></main></body></html>`;
  expect(markdownOf(answer, "https://answers.example/q/2", true)).toContain(sentence.repeat(4).trim());
});

test("a tooltip goes, whatever its class; the picture and the text it annotates stay", () => {
  const html = `<html><body><main><h1>Bookcases</h1>
    <p>Let your bookcase tell a story: books, plants and boxes in the open shelves of a pine unit.</p>
    <ul aria-label="Products shown on image"><li class="area"><div class="dot" role="group" tabindex="0"></div>
    <div role="tooltip" class="tag tag--bottom"><span class="tag-description">Product information page</span></div></li></ul>
    <p>Shelves <span class="term">adjust<span role="tooltip">Moves in 32 mm steps</span></span> to fit any book, from paperbacks to the tallest atlas on the shelf.</p></main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    const md = markdownOf(html, "https://shop.example/rooms", onlyMainContent);
    expect(md).not.toContain("Product information page");
    expect(md).not.toContain("32 mm");
    expect(md).toContain("Shelves adjust to fit any book, from paperbacks");
  }
});

test("screen-reader text goes behind a design system's prefix or in camel case; Tailwind's not-sr-only shows it", () => {
  const para =
    "The first post of the thread explains the problem with the boiler in some detail for readers.";
  const html = `<html><body><main><article><h1>Thread</h1><p>${para}</p>
    <p>Started by <span class="u-srOnly">Thread starter</span>Mira, <span class="h-sr-only">Loading...</span>who asks
    <span class="is-srOnly">Quantity:</span>how the boiler <button><span class="v6-visually-hidden">View fullsize</span></button>works.</p>
    <p>Reply <span class="not-sr-only">shown again</span> and <span class="card-visually-hidden-x">a word</span>.</p><p>${para}</p>
  </article></main></body></html>`;
  const md = markdownOf(html, "https://forum.example/t/1", true);
  for (const gone of ["Thread starter", "Loading...", "Quantity:", "View fullsize"])
    expect(md).not.toContain(gone);
  expect(md).toContain("Started by Mira, who asks how the boiler works.");
  expect(md).toContain("Reply shown again and a word.");
});

test("an accordion's trigger button keeps its heading's text; a button beside a heading's own text goes", () => {
  const html = `<html><body><main><h1>HRMS guide</h1>
    <p>Some intro text that is long enough to be the article's prose for sure here, with more words added.</p>
    <div class="faq"><h3><button aria-expanded="false" aria-controls="a1"><span>What is an HRMS?</span><svg></svg></button></h3>
    <div id="a1"><p>An HRMS is software that manages people data, payroll and leave.</p></div>
    <h3><button aria-expanded="false" aria-controls="a2">Who needs one?</button></h3>
    <div id="a2"><p>Any company past a handful of staff, for payroll and records.</p></div></div>
    <h2>Item path <button>Copy item path</button></h2>
    <p>More prose here so that the section reads as text of the page for readers.</p>
    <p>Sizes <button>Small</button><button>Large</button> in stock.</p></main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    const md = markdownOf(html, "https://hr.example/", onlyMainContent);
    expect(md).toContain("### What is an HRMS?\n\nAn HRMS is software");
    expect(md).toContain("### Who needs one?\n\nAny company");
    expect(md).toContain("## Item path\n");
    expect(md).not.toContain("Copy item path");
    expect(md).toContain("Sizes in stock.");
  }
});

test("a closed accordion's sections (hidden under their heading's toggle) are the page's; a menu's hidden list is not", () => {
  const html = `<html><body><main><h1>How to choose running shoes</h1>
    <p>Some intro text that is long enough to be the article's prose for sure here, with more words added.</p>
    <h3><button aria-expanded="false"><span><img src="/icons/arrow.svg" alt=""></span><p>Weight</p></button></h3>
    <div aria-hidden="true" hidden><p>Weights can also cater to workouts: a featherlight flat for the track.</p></div>
    <h3 aria-expanded="false">Cushioning</h3>
    <div hidden><ul><li>EVA: the standard foam for support and flexibility.</li><li>PEBA: bouncy, light racing foam.</li></ul></div>
    <h3>Fit</h3>
    <div hidden><p>Your shoes should feel comfortable on your feet, free of hotspots and pinching.</p></div>
    <h3>Peut-on les porter sous la pluie ? <span class="toggler" style="display: block;"><svg viewBox="0 0 18 11"><path d="M1 0L9 9"/></svg></span><span class="less" style="display: none;"><svg viewBox="0 0 18 11"><path d="M16 10L9 2"/></svg></span></h3>
    <div class="content" style="display: none;"><p>Oui, la tige est traitée contre l'eau et sèche vite après une sortie.</p></div>
    <h3 class="faq__collapsible-header">Delivery times</h3>
    <div style="display:none"><p>Orders leave our warehouse within two working days of payment.</p></div>
    <div><div class="toggle" aria-expanded="false">Shop by brand</div>
    <div hidden><p>Brooks running shoes and Nike running shoes in every size ship free this week.</p></div></div>
    <p>More prose here so that the section reads as text of the page for readers.</p></main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    const md = markdownOf(html, "https://run.example/", onlyMainContent);
    expect(md).toContain("Weights can also cater to workouts");
    expect(md).toContain("PEBA: bouncy, light racing foam.");
    // A toggle named so (an opener icon in the heading, or the heading itself), with no aria state.
    expect(md).toContain("la tige est traitée contre l'eau");
    expect(md).toContain("Orders leave our warehouse");
    // Hidden with no toggle, or under a toggle that is no heading's, it stays hidden.
    expect(md).not.toContain("hotspots");
    expect(md).not.toContain("Brooks running shoes");
  }
});

test("a heading of many buttons is read once, not once a button", () => {
  const html = `<html><body><main><h1>Sizes</h1><p>Every size of the boot, in stock at the time of writing, with its width.</p>
    <h2>${"<span><button>Go</button></span>".repeat(40_000)}</h2></main></body></html>`;
  const started = performance.now();
  const md = markdownOf(html, "https://shop.example/", true);
  // Quadratic (the heading's text read for each of its buttons), this took over 20 s.
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(md).not.toContain("Go");
}, 60_000);

test("a parent of many removed children (scripts, comments, hidden blocks) is cleaned in one pass", () => {
  const items = Array.from(
    { length: 100_000 },
    (_, i) => `<!-- slot ${i} --><script>var s${i}</script><div hidden>x</div><p>Row ${i}</p>`,
  );
  const html = `<html><body><main>${items.join("")}</main></body></html>`;
  const started = performance.now();
  const md = markdownOf(html, "https://example.com/rows", false);
  // Quadratic (each removal a search and a splice of the parent's 400,000 children), this took minutes.
  expect(performance.now() - started).toBeLessThan(15_000);
  expect(md).toContain("Row 0\n\nRow 1\n");
  expect(md).toContain("Row 99999");
  expect(md).not.toContain("var s");
}, 120_000);

test("a site's announcements above every page go; a documentation callout named notice stays", () => {
  const post = Array.from(
    { length: 3 },
    (_, i) =>
      `<p>The spindle bearings were replaced last winter and the lathe has run true since then, post ${i}.</p>`,
  ).join("");
  const html = `<html><body><main><div class="p-body">
    <ul class="notices notices--block js-notices"><li class="notice"><div class="notice-content">Scam alert: members are reminded never to send money to buy anything from someone they have not met, and to report suspicious offers to the admins.</div></li></ul>
    <div id="siteNotice"><p>The annual members' vote is open until Friday; every member who posted this year may vote once for each category.</p></div>
    <h1>Proxmox or Ubuntu for the shop server?</h1>${post}
    <div class="notice"><p>Note: back up the configuration before you upgrade the controller's firmware, as the upgrade resets it.</p></div>
  </div></main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    const md = markdownOf(html, "https://forum.example/threads/1", onlyMainContent);
    expect(md).toContain("spindle bearings");
    expect(md).toContain("back up the configuration");
    expect(md).not.toContain("Scam alert");
    expect(md).not.toContain("members' vote");
  }
});

/** The fastest of `runs` extractions of a page, ms: a busy machine slows some runs, never all of them. */
function fastestOf(runs: number, html: string, onlyMainContent: boolean): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    markdownOf(html, "https://timed.example/", onlyMainContent);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

test("rules about small elements read a few nodes: nested icons, forms or labels over a big subtree cost what plain boxes do", () => {
  const time = (tag: string, open: string, onlyMainContent: boolean) =>
    fastestOf(
      5,
      `<html><body><main><h1>Nested</h1><p>${"Some prose for the page to read. ".repeat(8)}</p>${open.repeat(500)}${"<span></span>".repeat(20_000)}${`</${tag}>`.repeat(500)}</main></body></html>`,
      onlyMainContent,
    );
  // Each level read or searched all 20,000 spans below it: 3 to 25 times the plain boxes' time.
  for (const onlyMainContent of [false, true]) {
    const plain = time("div", '<div class="box">', onlyMainContent);
    for (const [tag, open] of [
      ["div", '<div class="icon">'],
      ["div", '<div class="material-icons">'],
      ["form", "<form>"],
      ["label", "<label>"],
    ] as const)
      expect(time(tag, open, onlyMainContent) / plain).toBeLessThan(2.5);
  }
  // Fifty extractions of a 20,000-element page: seconds on a slow machine, whatever the ratio.
}, 60_000);

test("links named for an overlay read a few of their siblings: thousands of them in one line cost what plain links do", () => {
  const time = (cls: string) =>
    fastestOf(
      3,
      `<html><body><main><article><h1>Links</h1><p>${"Some prose for the page to read. ".repeat(40)}</p><p>${`<a class="${cls}" href="/x"></a>`.repeat(20_000)}</p></article></main></body></html>`,
      false,
    );
  // Each link looked at every sibling for words: 20,000 links took minutes.
  expect(time("modal-link") / time("plain-link")).toBeLessThan(2.5);
}, 60_000);

test("an icon's text is read only when it is small: a big element named icon is content", () => {
  const items = Array.from(
    { length: 12 },
    (_, i) => `<li>Step ${i + 1}: fold the edge and press it flat.</li>`,
  ).join("");
  const html = `<html><body><main><h1>Folding</h1><p>${"Fold the paper along the marked lines. ".repeat(4)}</p>
    <div class="icon-list"><ul>${items}</ul></div><p>Done <span class="icon">→</span> next.</p></main></body></html>`;
  const md = markdownOf(html, "https://crafts.example/fold", false);
  expect(md).toContain("Step 12: fold the edge");
  expect(md).not.toContain("→");
});

test("a link named for the overlay it opens stays inside its line or on a photo; alone with words it goes", () => {
  const html = `<body><main><article><h1>Services</h1>
    <p>In Kubernetes, a Service exposes an application running as one or more <a class="glossary-tooltip" href="/docs/pods/">Pods</a> in your cluster, behind one stable address that clients can keep using.</p>
    <ul><li>4 cups plus 3 tablespoons (500g) <a class="product-modal" href="https://shop.example/bread-flour">Unbleached Bread Flour</a></li><li>1 3/4 teaspoons table salt</li></ul>
    <p><a class="lightbox" href="/photos/harbour-large.jpg"><img src="/photos/harbour.jpg" alt="The harbour at dawn"></a></p>
    <p>A Deployment creates and destroys Pods as it scales, so their addresses come and go; the Service keeps track of them for you.</p>
    <div><a class="modal-trigger" href="/tools/mount-finder">Mount Finder</a></div>
  </article></main></body>`;
  for (const only of [true, false]) {
    const md = extractHtml(html, "https://docs.example/services", {
      format: "markdown",
      onlyMainContent: only,
      images: true,
    }).content;
    expect(md).toContain("one or more [Pods](https://docs.example/docs/pods/) in your cluster");
    expect(md).toContain("(500g) [Unbleached Bread Flour]");
    expect(md).toContain("The harbour at dawn");
    expect(md).not.toContain("Mount Finder");
  }
});

test("a pull quote drawn as a share link (click to tweet) stays as a quote; share buttons go", () => {
  const tweet = (text: string) =>
    `https://twitter.com/share?text=${encodeURIComponent(text).replaceAll("%20", "+")}&via=writer&url=https://blog.example/post`;
  const quote =
    "I'm here to tell you that the laws of physics apply to online business just like offline business.";
  const other = "Growing your visibility gradually lets you grow into the role with much less stress.";
  const html = `<body><main><h1>Business focus</h1>
    <p>When you step into the online space, you will meet a whole new cast of characters selling stories.</p>
    <a class="swp_CTT" href="${tweet(quote)}"><span class="sw-ctt-text">${quote}</span><span class="sw-ctt-btn">Click To Tweet</span></a>
    <p>It takes time to build a successful business, offline and online, and there is no shortcut to it.</p>
    <span class="bctt-click-to-tweet"><span class="bctt-ctt-text"><a href="https://twitter.com/intent/tweet?url=https%3A%2F%2Fblog.example&amp;text=${encodeURIComponent(other)}">${other}</a></span><a class="bctt-ctt-btn" href="https://twitter.com/intent/tweet?text=${encodeURIComponent(other)}">Click To Tweet</a></span>
    <p>Share: <a href="${tweet("Business focus: why the laws of physics apply to you")}">Twitter</a> <a href="https://www.facebook.com/sharer/sharer.php?u=https://blog.example/post">Facebook</a></p>
    <a href="${tweet("A sentence offered to share that the page itself never shows to its readers at all.")}">Tweet this post</a>
    <a href="${tweet("#SmallBusinessWeek")}">#SmallBusinessWeek</a>
  </main></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://blog.example/post", {
      format: "markdown",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain(`> ${quote}`);
    expect(content).toContain(`> ${other}`);
    for (const chrome of [
      "Click To Tweet",
      "twitter.com",
      "Facebook",
      "Tweet this post",
      "never shows",
      "SmallBusinessWeek",
    ])
      expect(content).not.toContain(chrome);
  }
});

test("an id spelling the element's own text names no chrome: a heading about social shopping stays", () => {
  const html = `<body><main><h1>Social shopping</h1>
    <p>Social shopping puts buying inside social media platforms, so users buy without leaving the app they are in.</p>
    <h2 class="wp-block-heading">FAQs</h2>
    <h3 class="wp-block-heading" id="h-how-does-social-shopping-differ-from-ecommerce"><strong>How does social shopping differ from eCommerce?</strong></h3>
    <p>Social shopping integrates the purchase into the social platform itself, with no separate website to visit.</p>
    <section id="share-your-menu-ideas-with-us"><h2>Share your menu ideas with us</h2><p>Readers sent in their favourite menus for a week of dinners, and we tried every one of them.</p></section>
    <div id="share-this"><p>Share this article with your friends on every network you use today.</p></div>
    <div id="site-menu-links"><p>Menu: Home, Shop, Blog and the Contact page of this store, all in one place.</p></div>
  </main></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://shop.example/social", {
      format: "markdown",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("### How does social shopping differ from eCommerce?");
    expect(content).toContain("Share your menu ideas with us");
    // An id of fewer than three words, or naming a widget rather than spelling its text, marks chrome.
    expect(content).not.toContain("Share this article");
    expect(content).not.toContain("all in one place");
  }
});

test("a task list keeps its checkboxes; a thread's fold toggle before a comment is no task", () => {
  const comment = (who: string, text: string) =>
    `<li class="comments_subtree"><input id="fold_${who}" class="comment_folder_button" type="checkbox">
      <div class="comment"><div class="byline"><a href="/~${who}">${who}</a></div><div class="comment_text"><p>${text}</p></div></div></li>`;
  const html = `<body><main><h1>Release goals</h1>
    <p>The project set its goals for the second half of the year, and readers discussed them below.</p>
    <ul><li><input type="checkbox" checked disabled> Ship the new trait solver</li><li><input type="checkbox" disabled> <code>async</code> closures</li></ul>
    <ol class="comments">${comment("kkiri", "Very interested in the ergonomic ref counting: I clone Arcs everywhere in my async tasks.")}${comment("dpc", "So do I, and I find that eliding clones would not especially improve ergonomics at all.")}</ol>
  </main></body>`;
  const { content } = extractHtml(html, "https://news.example/s/goals", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("[x] Ship the new trait solver");
  expect(content).toContain("[ ] `async` closures");
  expect(content).toContain("Very interested in the ergonomic ref counting");
  expect(content).not.toMatch(/\[ \]\s*(?:\n|$)/);
  expect(content.match(/\[ \]/g)?.length).toBe(1);
});

test("a line of links to the page in other releases is a version switcher and goes; version links in text stay", () => {
  const html = `<html><body><div class="wrap">
    <div class="row"><div class="col">Supported Versions:
      <a href="/docs/current/indexes.html">Current</a> (<a href="/docs/18/indexes.html">18</a>) /
      <a href="/docs/17/indexes.html">17</a> / <a href="/docs/16/indexes.html">16</a> / <a href="/docs/9.6/indexes.html">9.6</a>
    </div></div>
    <div>Другие версии: <a href="/v3.12/">v3.12</a> | <a href="/v3.11/">v3.11</a> | <a href="/v3.10/">v3.10</a> | <a href="/dev/">dev</a></div>
    <h1>Indexes</h1>
    <p>Indexes are a common way to enhance database performance: an index lets the server find rows much faster.</p>
    <p>Upgrade notes for <a href="/r/16">16</a>, <a href="/r/17">17</a> and <a href="/r/18">18</a> list every change to index storage since.</p>
    <div>Read: <a href="/r/17">17</a> / <a href="/r/18">18</a></div>
    <div>Compare: <a href="/r/16">16</a> / <a href="/r/17">17</a> / <a href="/r/18">18</a> / <a href="/r/all">all</a></div>
    <table><tr><th>Driver</th><th>Supported servers</th></tr><tr><td>psycopg</td><td><a href="/r/14">14</a>, <a href="/r/15">15</a>, <a href="/r/16">16</a></td></tr></table>
  </div></body></html>`;
  for (const onlyMainContent of [false, true]) {
    const md = markdownOf(html, "https://docs.example/docs/current/indexes.html", onlyMainContent);
    expect(md).toContain("Indexes are a common way");
    expect(md).not.toContain("Supported Versions");
    expect(md).not.toContain("9.6");
    expect(md).not.toContain("v3.11");
    // A sentence citing releases keeps its links; so do two releases alone and a line with another link.
    expect(md).toContain("Upgrade notes for [16](https://docs.example/r/16), [17]");
    if (!onlyMainContent) {
      expect(md).toContain("Read: [17](https://docs.example/r/17) / [18]");
      expect(md).toContain("[all](https://docs.example/r/all)");
      expect(md).toContain("| psycopg | [14](https://docs.example/r/14), [15]");
    }
  }
});

test("DocBook's Prev / Up / Home / Next bars above and below a page go", () => {
  const html = `<html><body><div id="docContent">
    <div class="navheader"><table width="100%" summary="Navigation header">
      <tr><th colspan="3">Chapter 11. Indexes</th></tr>
      <tr><td><a accesskey="p" href="typeconv.html">Prev</a></td><th>Part II. The SQL Language</th><td><a accesskey="n" href="intro.html">Next</a></td></tr>
    </table><hr></div>
    <div class="chapter"><h2 class="title">Chapter 11. Indexes</h2>
      <p>Indexes are a common way to enhance database performance: an index lets the server find rows much faster.</p>
      <p>But indexes also add overhead to the database system as a whole, so they should be used sensibly.</p>
    </div>
    <div class="navfooter"><hr><table width="100%" summary="Navigation footer">
      <tr><td><a accesskey="p" href="typeconv.html">Prev</a></td><td><a accesskey="u" href="sql.html">Up</a></td><td><a accesskey="n" href="intro.html">Next</a></td></tr>
      <tr><td>10.6. SELECT Output Columns</td><td><a accesskey="h" href="index.html">Home</a></td><td>11.1. Introduction</td></tr>
    </table></div>
  </div></body></html>`;
  for (const onlyMainContent of [false, true]) {
    const md = markdownOf(html, "https://docs.example/indexes.html", onlyMainContent);
    expect(md).toContain("## Chapter 11. Indexes");
    expect(md).toContain("so they should be used sensibly.");
    for (const nav of ["Prev", "Next", "Home", "Part II", "10.6. SELECT", "11.1. Introduction"])
      expect(md).not.toContain(nav);
  }
});

test("a section whose heading links to its id is the doc's section, however short the id: Flask's Cookies section stays", () => {
  const html = `<body><div class="body" role="main"><section id="quickstart"><h1>Quickstart<a class="headerlink" href="#quickstart">¶</a></h1>
    <p>Eager to get started? This page gives a good introduction to the framework and how its parts fit together.</p>
    <section id="cookies"><h2>Cookies<a class="headerlink" href="#cookies" title="Link to this heading">¶</a></h2>
      <p>To access cookies you can use the cookies attribute. To set cookies you can use the set_cookie method of response objects.</p>
    </section>
    <h3 id="share"><a class="hash-link" href="#share">#</a>Share</h3>
    <p>Share state between requests with the session object, signed so that the client cannot change it.</p>
    <div id="cookies-notice"><h2>Cookies</h2><p>We use cookies to improve your experience. Accept them to continue browsing.</p></div>
    <div id="consent"><h2>Your privacy <a href="#privacy">Read</a></h2><p>We and our partners use cookies for measurement and ads on this site.</p></div>
  </section></div></body>`;
  for (const onlyMainContent of [false, true]) {
    const { content } = extractHtml(html, "https://docs.example/quickstart/", {
      format: "markdown",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("## Cookies\n\nTo access cookies you can use");
    expect(content).toContain("### Share\n\nShare state between requests");
    // A banner's heading links nowhere or elsewhere: it is still a banner.
    expect(content).not.toContain("We use cookies");
    expect(content).not.toContain("our partners");
  }
});

// A hang guard: cleaning judges every element, and these looked at the whole of one at each
// level of a deep nest: a permalink's text, a widget-named box's tab panels and text.
test("deep nests of same-page links and of widget-named boxes are cleaned in linear time", () => {
  const words = "<b>w</b> ".repeat(75_000);
  const time = (open: string, close: string) =>
    fastestOf(
      2,
      `<html><body><article><p>The museum reopened its east wing on Saturday after two years of work on the roof.</p></article>${open.repeat(450)}${words}${close.repeat(450)}</body></html>`,
      false,
    );
  // Each level read all of the innermost: 5-20 times the same nest of plain boxes.
  const plain = time('<div class="box">', "</div>");
  expect(time('<a href="#top">', "</a>") / plain).toBeLessThan(2.5);
  expect(time('<div class="newsletter-promo">', "</div>") / plain).toBeLessThan(2.5);
}, 120_000);

describe("paywall and login boxes", () => {
  const story = Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Members who sign in read the whole guide to the river's tides, section ${i + 1} of six, with the charts.</p>`,
  ).join("");

  test("a login box in the story goes in both modes", () => {
    const html = `<body><main><h1>River tides</h1>${story}
      <div class="login-box"><span>Already a member?</span> <a href="/login">Sign in</a></div></main></body>`;
    for (const only of [true, false]) {
      const md = markdownOf(html, "https://tides.example/guide", only);
      expect(md).toContain("section 6 of six");
      expect(md).not.toContain("Already a member?");
    }
  });

  test("a story in a box named for members who logged in stays whole", () => {
    const html = `<body><div class="login-only content"><h1>River tides</h1>${story}</div>
      <div class="sidebar"><a href="/a">Other</a></div></body>`;
    for (const only of [true, false]) {
      const md = markdownOf(html, "https://tides.example/guide", only);
      expect(md).toContain("section 1 of six");
      expect(md).toContain("section 6 of six");
    }
  });
});

test("a gallery's slide counter goes in both modes; a sentence counting pictures stays", () => {
  const slide = (i: number) =>
    `<div class="item"><span class="slidecount">Image ${i} of 3</span><figure><img src="https://cdn.example/moon-${i}.jpg" alt="Lander ${i}"></figure></div>`;
  const html = `<body><main><article><h1>Five moon landers</h1>
    <p>NASA picked five more companies to build the landers that will carry its instruments to the moon.</p>
    <div class="inlinegallery">${[1, 2, 3].map(slide).join("")}</div>
    <p>Photo 2 of 3 in the agency's release shows the smallest lander, and the others follow it.</p>
    <p>Each company will bid for the agency's flights, and the first lands in 2021.</p></article></main></body>`;
  for (const only of [true, false]) {
    const md = markdownOf(html, "https://space.example/landers", only);
    expect(md).toContain("the first lands in 2021");
    expect(md).toContain("Photo 2 of 3 in the agency's release");
    expect(md).not.toContain("Image 1 of 3");
    expect(md).not.toContain("Image 3 of 3");
  }
});

test("a wiki's section edit links go in both modes; the section stays", () => {
  const section = (id: string) =>
    `<div class="mw-heading mw-heading2"><h2 id="${id}">${id}</h2><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?title=Languages&amp;action=edit&amp;section=1" title="Edit section: ${id}"><span>edit</span></a><span class="mw-editsection-bracket">]</span></span></div>
    <ul><li><a href="/wiki/${id}1">${id}-one, a language for the ${id} machines</a></li><li><a href="/wiki/${id}2">${id}-two, its successor with records</a></li></ul>`;
  const html = `<body><main><h1>List of languages</h1><p>This is an alphabetical list of notable programming languages, with a line about each.</p>${["A", "B", "C"].map(section).join("")}</main></body>`;
  for (const only of [true, false]) {
    const md = markdownOf(html, "https://wiki.example/wiki/Languages", only);
    expect(md).toContain("## B");
    expect(md).toContain("C-two, its successor with records");
    expect(md).not.toContain("edit");
  }
});

test("a forum post's tool bar and report links go in both modes; the posts stay", () => {
  const post = (i: number, tools: string) =>
    `<div class="post"><div class="postBody"><p>Reply ${i}: we took the night train from Tokyo to Kyoto and slept better than in any hotel on the trip.</p></div>${tools}</div>`;
  const bars = [
    '<div class="postTools"><a class="pid53">Reply</a><div class="inappropriate"><span class="taLnk">Report inappropriate content</span></div></div>',
    '<div class="post-actions"><a href="/r">Quote</a> <a href="/f">Flag this reply</a></div>',
    '<div class="comment-actions"><a href="/l">Like</a> <a href="/s">Share this reply</a></div>',
    '<span class="report-abuse"><a href="/abuse">Report abuse</a></span>',
  ];
  const html = `<body><main><h1>Night trains in Japan</h1>${bars.map((bar, i) => post(i + 1, bar)).join("")}</main></body>`;
  for (const only of [true, false]) {
    const md = markdownOf(html, "https://forum.example/t/9", only);
    for (let i = 1; i <= bars.length; i++) expect(md).toContain(`Reply ${i}: we took the night train`);
    for (const gone of [
      "Report inappropriate",
      "Flag this reply",
      "Share this reply",
      "Report abuse",
      "Quote",
    ])
      expect(md).not.toContain(gone);
  }
});

test("a story's text-size control goes in both modes", () => {
  const html = `<body><main><article><h1>Rates hold</h1><div class="textresizer"><span class="textresizer__label">Text size</span><button class="textresizer__button--dec"></button><button class="textresizer__button--inc"></button></div>
    <p>The central bank held its rates on Wednesday, as most of the economists it surveys had expected.</p>
    <p>Its statement said inflation was slowing, and that the next move could be a cut in the spring.</p></article></main></body>`;
  for (const only of [true, false]) {
    const md = markdownOf(html, "https://markets.example/rates", only);
    expect(md).toContain("a cut in the spring");
    expect(md).not.toContain("Text size");
  }
});

test("a video's fallback text goes in both modes; its sources and the text around it stay", () => {
  const html = `<body><main><h1>Standing desks</h1>
    <div class="hero"><video poster="https://cdn.example/desk.jpg" muted loop><source src="https://cdn.example/desk.mp4" type="video/mp4">Your browser does not support the video tag. <a href="https://cdn.example/desk.mp4">Download it</a></video></div>
    <p>Improve your health, comfort and productivity with a desk that rises and lowers at the touch of a button.</p>
    <p>Every frame is tested to hold twice its rated load before it leaves the workshop.</p>
    <video controls><source src="https://cdn.example/frame.mp4" type="video/mp4"><p>A time-lapse of a frame under twice its rated load for a week in the workshop, its height measured every hour and drawn beside it as a line that never bends.</p></video></main></body>`;
  for (const only of [true, false]) {
    const md = markdownOf(html, "https://desks.example/standing", only);
    expect(md).toContain("Improve your health, comfort and productivity");
    expect(md).not.toContain("does not support");
    expect(md).not.toContain("Download it");
    // A longer fallback describes what the video shows.
    expect(md).toContain("A time-lapse of a frame under twice its rated load");
  }
});
