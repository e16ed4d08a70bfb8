import { esc, layout } from "./layout.ts";

/**
 * Knowledge pages for ask: five reference articles about tide mills, water wheels, tides,
 * tidal power and millstones, each with headed sections. The pages share their vocabulary on
 * purpose (tide, mill, wheel, water, flour, turn, oldest, first, largest), so most questions
 * have distractor passages that repeat the question's words without answering it. Four pages
 * declare a published date (a meta tag, JSON-LD or <time>), each of another age; one has none.
 * KNOWLEDGE_QUESTIONS pairs questions, asked as a person would ask them, with the one
 * sentence that answers each.
 */

interface Section {
  heading: string;
  paragraphs: string[];
}

interface KnowledgePage {
  path: string;
  title: string;
  /** What a search engine shows under the result. */
  snippet: string;
  /** ISO 8601, or null for a page that says nothing about its date. */
  published: string | null;
  /** How the page declares its date: a meta tag, JSON-LD or a <time> element. */
  declares?: "meta" | "json-ld" | "time";
  intro: string;
  sections: Section[];
}

const TIDE_MILLS: KnowledgePage = {
  path: "/knowledge/tide-mills",
  title: "Tide mill – Coastal Heritage Encyclopedia",
  snippet: "A tide mill is a water mill driven by the rise and fall of the tide",
  published: "2019-06-03T10:00:00Z",
  declares: "meta",
  intro:
    "A tide mill is a water mill driven by the rise and fall of the tide. Tide mills were built on sheltered estuaries and creeks along the Atlantic coasts of Europe and North America, where the difference between high and low water is large enough to be worth capturing.",
  sections: [
    {
      heading: "How a tide mill works",
      paragraphs: [
        "As the tide comes in, sea water flows through sluice gates into a millpond behind the mill. When the tide turns, the pressure of the water closes the gates and the pond stays full. Once the sea outside has fallen far enough, the miller opens a sluice and the stored water runs out past the wheel and back to the sea, driving the machinery until the pond is nearly empty.",
      ],
    },
    {
      heading: "The wheel",
      paragraphs: [
        "The fall of water in a tide mill is small, rarely more than two metres between the pond and the ebbing sea. Tide mills therefore used undershot or low breastshot wheels, broad and slow, struck low down by the water, rather than the overshot wheels of hill streams. A few later mills replaced the wheel with a turbine.",
      ],
    },
    {
      heading: "Working hours",
      paragraphs: [
        "A tide mill can grind only while the sea is low enough for the pond to drain, four or five hours in each tide. Because high water comes about fifty minutes later every day, the miller's working hours moved round the clock with the tides, and much of the work was done at night.",
      ],
    },
    {
      heading: "History",
      paragraphs: [
        "The oldest tide mills yet found are at Nendrum Monastery on Strangford Lough in Northern Ireland, where tree-ring dating of the timbers places the first mill around 619 AD. Tide mills spread along the coasts of Europe in the Middle Ages; London had several on the Thames.",
      ],
    },
    {
      heading: "Surviving mills",
      paragraphs: [
        "Eling Tide Mill, on the edge of Southampton Water in Hampshire, is one of the very few still working: it grinds wholemeal flour that is sold to visitors. Woodbridge Tide Mill in Suffolk has been restored and its wheel turns on demonstration days, though it no longer produces flour for sale.",
      ],
    },
    {
      heading: "Decline",
      paragraphs: [
        "Steam engines and then roller mills took the trade away from tide mills in the nineteenth century. Many millponds were filled in for docks, and the buildings became warehouses or houses; few tide mills still worked after the Second World War.",
      ],
    },
  ],
};

const WATER_WHEELS: KnowledgePage = {
  path: "/knowledge/water-wheels",
  title: "Types of water wheel | Millwright's Notebook",
  snippet: "Overshot, undershot and breastshot water wheels compared",
  published: null,
  intro:
    "A water wheel turns the energy of falling or flowing water into rotation that can drive millstones, hammers, saws or pumps. Which kind of wheel a millwright built depended on how much fall the site offered and how much water the stream carried.",
  sections: [
    {
      heading: "Overshot wheels",
      paragraphs: [
        "In an overshot wheel, a channel carries the water over the top of the wheel into buckets on the far side, and the weight of the water turns it. Overshot wheels need a fall at least as tall as the wheel, but they are the most efficient type, turning up to 80 or 90 per cent of the water's energy into work.",
      ],
    },
    {
      heading: "Undershot wheels",
      paragraphs: [
        "An undershot wheel sits in the stream and is pushed round by water flowing under it against flat paddles. It needs almost no fall, which suits slow rivers and tidal ponds, but it wastes most of the energy: an undershot wheel rarely reaches 30 per cent efficiency.",
      ],
    },
    {
      heading: "Breastshot wheels",
      paragraphs: [
        "A breastshot wheel is struck by the water at about the height of its axle, a compromise between the other two types. A close-fitting curved apron keeps the water in the paddles for longer, and a well-built breastshot wheel can reach 60 per cent.",
      ],
    },
    {
      heading: "Horizontal wheels and turbines",
      paragraphs: [
        "The oldest mills of Greece and Ireland used small horizontal wheels on a vertical shaft that turned the upper millstone directly, with no gears at all. In the nineteenth century the water turbine, enclosed and much faster, replaced the wheel in most mills and later drove electric generators.",
      ],
    },
  ],
};

const TIDAL_POWER: KnowledgePage = {
  path: "/knowledge/tidal-power",
  title: "Tidal power stations: where the tide makes electricity",
  snippet: "From La Rance to Sihwa Lake: how tidal power stations work",
  published: "2026-11-14T07:45:00Z",
  declares: "json-ld",
  intro:
    "Tidal power uses the same rise and fall of the sea that once turned tide mills, but drives turbines that generate electricity. Unlike wind and sunshine, the tide can be predicted years ahead.",
  sections: [
    {
      heading: "Barrages",
      paragraphs: [
        "A tidal barrage is a dam across an estuary with turbines set in its sluices. Water is let through the turbines as the tide falls, and at some stations as it rises too. In principle it is a tide mill on a vast scale, and it changes the estuary behind it just as much.",
      ],
    },
    {
      heading: "La Rance",
      paragraphs: [
        "The first tidal power station of any size was built across the estuary of the Rance in Brittany, France, and began generating in 1966. Its 24 turbines give 240 megawatts, and for 45 years it was the largest tidal plant anywhere in the world.",
      ],
    },
    {
      heading: "Sihwa Lake",
      paragraphs: [
        "Sihwa Lake Tidal Power Station in South Korea overtook La Rance when it opened in 2011, and it is now the largest in the world: ten turbines built into an existing sea wall produce 254 megawatts.",
      ],
    },
    {
      heading: "Tidal stream turbines",
      paragraphs: [
        "Newer projects avoid dams altogether. Tidal stream turbines stand on the seabed like underwater wind turbines and turn in the current; MeyGen in the Pentland Firth, Scotland, has run four 1.5-megawatt turbines since 2016.",
      ],
    },
  ],
};

const TIDES: KnowledgePage = {
  path: "/knowledge/tides",
  title: "Why the sea has tides – Ocean Explainers",
  snippet: "The Moon, the Sun and the shape of the coast",
  published: "2026-10-25T16:00:00Z",
  declares: "time",
  intro:
    "Twice a day, almost everywhere on the coast, the sea comes up the shore and goes back again. The reasons lie in the sky and in the shape of the sea floor.",
  sections: [
    {
      heading: "The Moon's pull",
      paragraphs: [
        "Tides are caused mainly by the gravity of the Moon. The Moon pulls hardest on the side of the Earth facing it, drawing the ocean into a bulge; on the far side the Earth itself is pulled away from the water, leaving a second bulge. As the Earth turns through both bulges, most coasts get two high tides and two low tides a day.",
      ],
    },
    {
      heading: "Spring and neap tides",
      paragraphs: [
        "When the Sun and the Moon line up, at new moon and full moon, their pulls add together and the range between high and low water is greatest: these are spring tides, which have nothing to do with the season. At the quarter moons the Sun pulls at right angles to the Moon and the range is smallest: these are neap tides.",
      ],
    },
    {
      heading: "The daily delay",
      paragraphs: [
        "High tide comes about fifty minutes later each day, because the Moon moves along its orbit in the same direction as the Earth turns, and the Earth needs a little longer to catch up with it. That is why a tide table shifts from one day to the next.",
      ],
    },
    {
      heading: "Where tides are highest",
      paragraphs: [
        "The shape of a coast can amplify the tide enormously. In the Bay of Fundy, between New Brunswick and Nova Scotia in Canada, the water rises and falls by as much as 16 metres, the greatest tidal range on Earth.",
      ],
    },
  ],
};

const MILLSTONES: KnowledgePage = {
  path: "/knowledge/millstones",
  title: "Millstones: choosing, dressing and running them",
  snippet: "French burr, Peak stones, dressing and speed",
  published: "2026-02-09T09:00:00Z",
  declares: "meta",
  intro:
    "Whatever turns a mill, wind, river or tide, the work is done between two stones: a fixed bed stone and a runner stone turning above it. The grain enters through the eye of the runner and leaves at the edge as meal.",
  sections: [
    {
      heading: "Choosing the stone",
      paragraphs: [
        "Millers prized French burr, a hard freshwater quartz quarried around La Ferté-sous-Jouarre east of Paris, above any other stone for wheat: it kept a sharp edge and made the whitest flour. It came only in small blocks, so burr millstones were built of pieces cemented together and bound with iron hoops. Cheaper millstones of Peak District gritstone were used for oats and animal feed.",
      ],
    },
    {
      heading: "Dressing",
      paragraphs: [
        "Every few weeks a pair of millstones wore smooth and had to be dressed: the runner was lifted off with a crane, and the miller or a travelling stone dresser recut the pattern of furrows and lands with a mill bill, a steel chisel set in a wooden handle. Sharp furrows cut the grain and carry the meal out to the edge.",
      ],
    },
    {
      heading: "Speed and gap",
      paragraphs: [
        "A pair of four-foot millstones usually turned at around 120 revolutions a minute; larger stones ran slower so that their edge did not overheat the flour. The miller set the gap between the stones with the tentering gear, rubbing the meal between finger and thumb to judge it.",
      ],
    },
    {
      heading: "Dangers",
      paragraphs: [
        "Stones left running empty could strike sparks off each other, and fine flour dust hanging in the air can explode; more than one mill burned down after a dust explosion started at the stones.",
      ],
    },
  ],
};

/** Every knowledge page, in the order the fake search engines return them. */
export const KNOWLEDGE_PAGES: readonly KnowledgePage[] = [
  TIDE_MILLS,
  WATER_WHEELS,
  TIDAL_POWER,
  TIDES,
  MILLSTONES,
];

/** The knowledge pages as search results, for FakeSearch.results. */
export const KNOWLEDGE_RESULTS = KNOWLEDGE_PAGES.map(({ path, title, snippet }) => ({
  path,
  title,
  snippet,
}));

/** A question as a person would word it, and the sentence of the one passage that answers it. */
export interface KnowledgeQuestion {
  question: string;
  answer: string;
}

/**
 * Questions worded as people ask them, each with the sentence (from one passage) that answers
 * it; ask ranks that passage first for every one. Every question shares words with distractor
 * passages on other pages or in other sections. Eight questions were written after ask's
 * ranking was settled, as a check it had not been fitted to the first ones, and kept whatever
 * it did with them: the last five here, and three of KNOWLEDGE_MISSES.
 */
export const KNOWLEDGE_QUESTIONS: readonly KnowledgeQuestion[] = [
  {
    question: "what wheel does a tide mill use",
    answer: "Tide mills therefore used undershot or low breastshot wheels",
  },
  { question: "what is the oldest known tide mill?", answer: "at Nendrum Monastery on Strangford Lough" },
  { question: "why did tide millers work at night", answer: "much of the work was done at night" },
  {
    question: "is there a tide mill that still makes flour today?",
    answer: "Eling Tide Mill, on the edge of Southampton Water",
  },
  {
    question: "which type of water wheel is the most efficient?",
    answer: "they are the most efficient type, turning up to 80 or 90 per cent",
  },
  { question: "when did the first tidal power station open?", answer: "began generating in 1966" },
  {
    question: "which tidal power station is the largest in the world today?",
    answer: "Sihwa Lake Tidal Power Station in South Korea overtook La Rance",
  },
  {
    question: "why are there two high tides every day?",
    answer: "most coasts get two high tides and two low tides a day",
  },
  {
    question: "what's the difference between spring tides and neap tides",
    answer: "these are spring tides, which have nothing to do with the season",
  },
  { question: "where are the highest tides on earth", answer: "In the Bay of Fundy" },
  { question: "what kind of stone made the best millstones?", answer: "Millers prized French burr" },
  { question: "what does dressing a millstone mean", answer: "had to be dressed" },
  { question: "how fast does a millstone turn", answer: "around 120 revolutions a minute" },
  { question: "what causes tides?", answer: "Tides are caused mainly by the gravity of the Moon" },
  { question: "is flour dust in a mill dangerous", answer: "fine flour dust hanging in the air can explode" },
  { question: "how high does the tide rise in the Bay of Fundy", answer: "as much as 16 metres" },
  { question: "what is a tidal barrage", answer: "A tidal barrage is a dam across an estuary" },
  {
    question: "what did old greek mills use instead of a vertical wheel",
    answer: "used small horizontal wheels on a vertical shaft",
  },
];

/**
 * Questions ask does not answer with their passage, and why: words BM25 cannot connect (it
 * knows no synonyms) or a distractor that shares more of the question's words than the answer.
 */
export const KNOWLEDGE_MISSES: readonly (KnowledgeQuestion & { why: string })[] = [
  {
    question: "how does a tide mill keep its water for when the tide goes out?",
    answer: "the pressure of the water closes the gates and the pond stays full",
    why: "the answer says stays full and stored, not keep; the lede repeats tide mill and water more often",
  },
  {
    question: "how much electricity does La Rance produce?",
    answer: "Its 24 turbines give 240 megawatts",
    why: "the answer says give; the Sihwa Lake passage names La Rance and says produce",
  },
  {
    question: "when did tide mills stop being used",
    answer: "Steam engines and then roller mills took the trade away from tide mills",
    why: "no passage says stop; the tidal power lede says tide mills and uses (used and uses stem alike)",
  },
  {
    question: "what is a millpond",
    answer: "sea water flows through sluice gates into a millpond behind the mill",
    why: "one term, in two passages once each: BM25 prefers the shorter, which only mentions millponds",
  },
];

function declaration(page: KnowledgePage): { head: string; byline: string } {
  if (!page.published) return { head: "", byline: "" };
  if (page.declares === "json-ld") {
    const ld = {
      "@context": "https://schema.org",
      "@type": "Article",
      headline: page.title,
      datePublished: page.published,
    };
    return { head: `<script type="application/ld+json">${JSON.stringify(ld)}</script>`, byline: "" };
  }
  if (page.declares === "time") {
    return {
      head: "",
      byline: `<p class="byline">Published <time datetime="${page.published}">${page.published.slice(0, 10)}</time></p>`,
    };
  }
  return { head: `<meta property="article:published_time" content="${page.published}">`, byline: "" };
}

/** One knowledge page as HTML in the site's layout. */
export function knowledgePage(page: KnowledgePage): string {
  const { head, byline } = declaration(page);
  const sections = page.sections
    .map(
      (s) => `    <h2>${esc(s.heading)}</h2>
${s.paragraphs.map((p) => `    <p>${esc(p)}</p>`).join("\n")}`,
    )
    .join("\n");
  const body = `<main id="content">
  <article>
    <h1>${esc(page.title.split(/ [–|] /)[0] ?? page.title)}</h1>
    ${byline}
    <p class="lede">${esc(page.intro)}</p>
${sections}
  </article>
</main>`;
  return layout({ title: page.title, head, body });
}
