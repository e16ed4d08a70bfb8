/**
 * What field names mean: normalised names, the schema.org paths (and page labels, in a few
 * languages) each common field name is found under, and the schema.org type families a schema
 * or a field can describe.
 */

const normCache = new Map<string, string>();
const stemCache = new Map<string, string>();
const wordsCache = new Map<string, string[]>();

/** Keys and field names repeat across pages and fields: bounded memos keep lookups cheap without growing forever. */
function remember<T>(cache: Map<string, T>, key: string, make: () => T): T {
  // Long strings are page text, not names: not worth keeping.
  if (key.length > 100) return make();
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size > 5000) cache.clear();
    cache.set(key, value);
  }
  return value;
}

/** "datePublished", "date_published" and "Date published" -> "datepublished"; accents dropped. */
export function norm(name: string): string {
  return remember(normCache, name, () =>
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]/g, ""),
  );
}

/** `norm` and then singular: "ingredients" -> "ingredient", "categories" -> "category", "addresses" -> "address". */
export function stem(name: string): string {
  return remember(stemCache, name, () => singular(norm(name)));
}

function singular(n: string): string {
  if (n.length <= 3) return n;
  if (n.endsWith("ies")) return `${n.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(n)) return n.slice(0, -2);
  if (n.endsWith("s") && !n.endsWith("ss") && !n.endsWith("us") && !n.endsWith("is")) return n.slice(0, -1);
  return n;
}

/** The words of a camelCase or snake_case name: "authorName" -> ["author", "name"]. */
export function words(name: string): string[] {
  return remember(wordsCache, name, () => splitWords(name));
}

function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const NAME = ["name", "headline", "title", "item.name"];
const PRICE = [
  "offers.price",
  "price",
  "offers.lowPrice",
  "lowPrice",
  "offers.priceSpecification.price",
  "offers.highPrice",
  "preis",
  "prix",
  "precio",
  "prezzo",
  "cost",
];
const CURRENCY = [
  "offers.priceCurrency",
  "priceCurrency",
  "offers.priceSpecification.priceCurrency",
  "currency",
  "baseSalary.currency",
  "salaryCurrency",
  "estimatedSalary.currency",
];
const AUTHOR = [
  "author.name",
  "author",
  "creator.name",
  "creator",
  "byline",
  "written by",
  "autor",
  "auteur",
  "autore",
];
const PUBLISHED = [
  "datePublished",
  "dateCreated",
  "uploadDate",
  "datePosted",
  "published",
  "publication date",
  "veröffentlicht",
];
const INSTRUCTIONS = [
  "recipeInstructions",
  "instructions",
  "method",
  "directions",
  "preparation",
  "steps",
  "zubereitung",
  "préparation",
  "preparación",
  "preparazione",
];
const LOCATION = [
  "location",
  "jobLocation",
  "address",
  "venue",
  "where",
  "place",
  "areaServed",
  "ort",
  "lieu",
  "lugar",
];
const SALARY_MIN = [
  "baseSalary.value.minValue",
  "baseSalary.minValue",
  "estimatedSalary.value.minValue",
  "salary",
  "gehalt",
];
const SALARY_MAX = [
  "baseSalary.value.maxValue",
  "baseSalary.maxValue",
  "estimatedSalary.value.maxValue",
  "salary",
  "gehalt",
];
const COMPANY = [
  "hiringOrganization.name",
  "hiringOrganization",
  "worksFor.name",
  "employer",
  "company",
  "unternehmen",
  "entreprise",
];
const RATING = [
  "aggregateRating.ratingValue",
  "ratingValue",
  "reviewRating.ratingValue",
  "rating",
  "stars",
  "bewertung",
];
const REVIEW_COUNT = [
  "aggregateRating.reviewCount",
  "aggregateRating.ratingCount",
  "reviewCount",
  "ratingCount",
  "reviews",
];
const SERVINGS = [
  "recipeYield",
  "yield",
  "servings",
  "serves",
  "portions",
  "makes",
  "portionen",
  "personnes",
  "porciones",
];
const EMAIL = [
  "email",
  "contactPoint.email",
  "hiringOrganization.email",
  "organizer.email",
  "e-mail",
  "mail",
];
const PHONE = ["telephone", "contactPoint.telephone", "phone", "tel", "telefon", "téléphone", "teléfono"];

/**
 * Field names (as `stem` gives them) and where each is found, best first: dotted schema.org
 * paths, then labels pages print. Names absent here are matched by their own name.
 */
export const SYNONYMS: Record<string, string[]> = {
  name: NAME,
  title: ["headline", "title", "name", "titel", "titre"],
  headline: ["headline", "name", "title"],
  productname: ["name", "title"],
  jobtitle: ["title", "name", "jobTitle"],
  description: ["description", "abstract", "summary", "beschreibung"],
  summary: ["description", "abstract", "summary"],
  url: ["url", "@id", "item.@id", "item", "mainEntityOfPage.@id", "mainEntityOfPage"],
  link: ["url", "@id", "mainEntityOfPage"],
  image: ["image.url", "image.contentUrl", "image", "thumbnailUrl", "photo", "logo"],
  imageurl: ["image.url", "image.contentUrl", "image", "thumbnailUrl"],
  photo: ["image.url", "image", "photo"],
  picture: ["image.url", "image"],
  thumbnail: ["thumbnailUrl", "image.url", "image"],
  logo: ["logo.url", "logo", "image"],
  author: AUTHOR,
  authorname: AUTHOR,
  writer: AUTHOR,
  byline: AUTHOR,
  creator: ["creator.name", "creator", "author.name", "author"],
  publisher: ["publisher.name", "publisher", "siteName", "sourceOrganization.name"],
  site: ["publisher.name", "siteName", "site"],
  sitename: ["siteName", "publisher.name"],
  date: ["datePublished", "startDate", "datePosted", "dateCreated", "uploadDate", "date", "datum"],
  published: PUBLISHED,
  publishedat: PUBLISHED,
  publishdate: PUBLISHED,
  publisheddate: PUBLISHED,
  publicationdate: PUBLISHED,
  pubdate: PUBLISHED,
  datepublished: PUBLISHED,
  updated: ["dateModified"],
  updatedat: ["dateModified"],
  modified: ["dateModified"],
  lastmodified: ["dateModified"],
  created: ["dateCreated", "datePublished"],
  createdat: ["dateCreated", "datePublished"],
  section: ["articleSection", "section", "category"],
  category: ["category", "articleSection", "recipeCategory", "genre", "occupationalCategory"],
  keyword: ["keywords", "tags", "tag", "schlagwörter"],
  tag: ["keywords", "tags", "tag"],
  language: ["inLanguage", "language"],
  lang: ["inLanguage"],
  body: ["articleBody", "text"],
  articlebody: ["articleBody", "text"],
  content: ["articleBody", "text"],
  text: ["text", "articleBody"],
  price: PRICE,
  cost: PRICE,
  amount: PRICE,
  offerprice: PRICE,
  saleprice: PRICE,
  currentprice: PRICE,
  lowprice: ["offers.lowPrice", "lowPrice", ...PRICE],
  minprice: ["offers.lowPrice", "lowPrice", ...PRICE],
  highprice: ["offers.highPrice", "highPrice", ...PRICE],
  maxprice: ["offers.highPrice", "highPrice", ...PRICE],
  currency: CURRENCY,
  pricecurrency: CURRENCY,
  availability: ["offers.availability", "availability", "stock", "verfügbarkeit"],
  instock: ["offers.availability", "availability", "stock"],
  available: ["offers.availability", "availability"],
  isavailable: ["offers.availability", "availability"],
  stock: ["offers.availability", "availability"],
  condition: ["offers.itemCondition", "itemCondition", "condition"],
  brand: ["brand.name", "brand", "manufacturer.name", "manufacturer", "marke", "marque", "marca"],
  manufacturer: ["manufacturer.name", "manufacturer", "brand.name", "brand"],
  sku: ["sku", "offers.sku", "productID", "article number", "artikelnummer", "item number"],
  mpn: ["mpn", "offers.mpn"],
  gtin: ["gtin", "gtin13", "gtin14", "gtin12", "gtin8", "ean", "isbn", "offers.gtin"],
  ean: ["gtin13", "gtin", "ean"],
  upc: ["gtin12", "gtin", "upc"],
  isbn: ["isbn", "gtin13"],
  rating: RATING,
  ratingvalue: RATING,
  averagerating: RATING,
  star: RATING,
  score: RATING,
  reviewcount: REVIEW_COUNT,
  numberofreview: REVIEW_COUNT,
  ratingcount: ["aggregateRating.ratingCount", "aggregateRating.reviewCount", "ratingCount", "reviewCount"],
  ingredient: ["recipeIngredient", "ingredients", "zutaten", "ingrédients", "ingredientes", "ingredienti"],
  instruction: INSTRUCTIONS,
  step: INSTRUCTIONS,
  method: INSTRUCTIONS,
  direction: INSTRUCTIONS,
  preptime: ["prepTime", "prep time", "preparation time", "vorbereitungszeit"],
  cooktime: ["cookTime", "cook time", "cooking time", "kochzeit", "backzeit"],
  totaltime: ["totalTime", "total time", "ready in", "gesamtzeit"],
  duration: ["duration", "totalTime"],
  serving: SERVINGS,
  yield: SERVINGS,
  serve: SERVINGS,
  portion: SERVINGS,
  calory: ["nutrition.calories", "calories", "kalorien", "energy"],
  calorie: ["nutrition.calories", "calories", "kalorien", "energy"],
  cuisine: ["recipeCuisine", "cuisine", "küche"],
  course: ["recipeCategory", "course"],
  startdate: ["startDate", "start", "date", "when", "beginn"],
  start: ["startDate", "start"],
  starttime: ["startDate", "start", "doorTime"],
  enddate: ["endDate", "end", "ende"],
  end: ["endDate", "end"],
  endtime: ["endDate", "end"],
  doortime: ["doorTime", "doors", "einlass"],
  location: LOCATION,
  venue: ["location.name", "location", "venue", "place"],
  venuename: ["location.name", "location", "venue"],
  place: LOCATION,
  address: ["address", "location.address", "jobLocation.address", "adresse", "dirección"],
  streetaddress: [
    "streetAddress",
    "address.streetAddress",
    "location.address.streetAddress",
    "jobLocation.address.streetAddress",
    "street",
  ],
  city: [
    "addressLocality",
    "address.addressLocality",
    "location.address.addressLocality",
    "jobLocation.address.addressLocality",
    "city",
    "stadt",
    "ville",
  ],
  country: [
    "addressCountry",
    "address.addressCountry",
    "location.address.addressCountry",
    "jobLocation.address.addressCountry",
    "country",
    "land",
  ],
  postalcode: [
    "postalCode",
    "address.postalCode",
    "location.address.postalCode",
    "jobLocation.address.postalCode",
    "zip",
  ],
  zip: ["postalCode", "address.postalCode", "location.address.postalCode"],
  organizer: ["organizer.name", "organizer", "host", "veranstalter"],
  host: ["organizer.name", "organizer", "host"],
  performer: ["performer.name", "performer", "artist", "lineup"],
  artist: ["performer.name", "performer", "byArtist.name", "artist"],
  lineup: ["performer.name", "performer", "lineup"],
  eventstatus: ["eventStatus", "status"],
  status: ["eventStatus", "status"],
  attendancemode: ["eventAttendanceMode"],
  ticketurl: ["offers.url", "tickets"],
  salary: [
    "baseSalary.value.value",
    "baseSalary.value",
    "baseSalary",
    "estimatedSalary",
    "salary",
    "gehalt",
    "salaire",
  ],
  basesalary: ["baseSalary.value.value", "baseSalary.value", "baseSalary", "salary"],
  salarymin: SALARY_MIN,
  minsalary: SALARY_MIN,
  salaryfrom: SALARY_MIN,
  salarymax: SALARY_MAX,
  maxsalary: SALARY_MAX,
  salaryto: SALARY_MAX,
  salarycurrency: ["baseSalary.currency", "salaryCurrency", "estimatedSalary.currency", "currency"],
  salaryunit: ["baseSalary.value.unitText", "baseSalary.unitText"],
  salaryperiod: ["baseSalary.value.unitText", "baseSalary.unitText"],
  company: COMPANY,
  companyname: COMPANY,
  employer: COMPANY,
  hiringorganization: COMPANY,
  organization: [
    "hiringOrganization.name",
    "organizer.name",
    "publisher.name",
    "worksFor.name",
    "organization",
  ],
  employmenttype: [
    "employmentType",
    "job type",
    "contract",
    "contract type",
    "anstellungsart",
    "vertragsart",
  ],
  jobtype: ["employmentType", "job type"],
  dateposted: ["datePosted", "datePublished", "posted"],
  posted: ["datePosted", "datePublished", "posted"],
  postedat: ["datePosted", "datePublished", "posted"],
  validthrough: ["validThrough", "expires", "deadline", "apply by", "closing date", "bewerbungsfrist"],
  deadline: ["validThrough", "expires", "deadline", "apply by", "closing date", "bewerbungsfrist"],
  closingdate: ["validThrough", "expires", "closing date", "deadline"],
  expire: ["validThrough", "expires"],
  remote: ["jobLocationType", "remote"],
  isremote: ["jobLocationType", "remote"],
  qualification: ["qualifications", "experienceRequirements", "requirements", "anforderungen", "profil"],
  requirement: ["qualifications", "experienceRequirements", "requirements", "anforderungen", "profil"],
  responsibility: ["responsibilities", "aufgaben", "your role", "what you'll do"],
  skill: ["skills", "qualifications"],
  benefit: ["jobBenefits", "benefits", "perks", "wir bieten"],
  industry: ["industry"],
  email: EMAIL,
  contactemail: EMAIL,
  mail: EMAIL,
  phone: PHONE,
  telephone: PHONE,
  phonenumber: PHONE,
  tel: PHONE,
  breadcrumb: ["itemListElement"],
  question: ["name", "text", "question"],
  answer: ["acceptedAnswer.text", "suggestedAnswer.text", "text", "answer"],
  faq: ["mainEntity"],
  position: ["position"],
  item: ["item", "url"],
};

/** schema.org types grouped by what they describe; a Found matches a schema when their families agree. */
export function familyOf(type: string): string {
  if (type === "JobPosting") return "JobPosting";
  if (
    /Article$|BlogPosting$|^SocialMediaPosting$|^LiveBlogPosting$|^Report$|^DiscussionForumPosting$/.test(
      type,
    )
  ) {
    return "Article";
  }
  if (/Event$|^Festival$|^EventSeries$/.test(type)) return "Event";
  if (
    /^(Product|ProductGroup|ProductModel|IndividualProduct|SomeProducts|Vehicle|Car|Offer|AggregateOffer)$/.test(
      type,
    )
  ) {
    return "Product";
  }
  if (/Organization$|^Corporation$|^NGO$|Business$|^Restaurant$|^Store$/.test(type)) return "Organization";
  if (type === "Page" || (/Page$/.test(type) && type !== "FAQPage" && type !== "QAPage")) return "Page";
  return type;
}

/** Words in a schema's title or description, or a field's name, that say which family it describes. */
const FAMILY_WORDS: [RegExp, string][] = [
  [
    /\b(job|jobs|vacanc(y|ies)|posting|career|opening|hiring|stelle|stellenangebot|emploi|empleo)\b/,
    "JobPosting",
  ],
  [/\b(recipe|recipes|dish|rezept|recette|receta|ricetta)\b/, "Recipe"],
  [/\b(event|events|concert|gig|festival|conference|meetup|veranstaltung|show)\b/, "Event"],
  [/\b(article|articles|news|post|posts|blog|story|stories|press release|artikel)\b/, "Article"],
  [/\b(product|products|item for sale|offer|shop|produkt|produit|producto)\b/, "Product"],
  [/\b(organi[sz]ations?|company|companies|business|publisher|employer)\b/, "Organization"],
  [/\b(person|people|profile|biography)\b/, "Person"],
  [/\b(breadcrumbs?)\b/, "BreadcrumbList"],
  [/\b(faqs?|questions?)\b/, "FAQPage"],
];

/** The family a schema's or a field's words name, if any. */
export function familyFromWords(text: string): string | null {
  const lower = text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  for (const [re, family] of FAMILY_WORDS) if (re.test(lower)) return family;
  return null;
}

/** Field names (stems) that only one family has: a schema asking for them describes that family. */
export const SIGNATURES: Record<string, string[]> = {
  Product: [
    "price",
    "sku",
    "brand",
    "gtin",
    "mpn",
    "ean",
    "availability",
    "instock",
    "rating",
    "reviewcount",
    "offer",
    "currency",
  ],
  Article: [
    "headline",
    "author",
    "datepublished",
    "published",
    "publisher",
    "articlebody",
    "body",
    "section",
    "wordcount",
    "keyword",
  ],
  Recipe: [
    "ingredient",
    "instruction",
    "preptime",
    "cooktime",
    "totaltime",
    "serving",
    "yield",
    "calory",
    "cuisine",
    "nutrition",
  ],
  Event: ["startdate", "enddate", "venue", "performer", "organizer", "doortime", "eventstatus", "location"],
  JobPosting: [
    "salary",
    "salarymin",
    "salarymax",
    "company",
    "employer",
    "hiringorganization",
    "employmenttype",
    "validthrough",
    "dateposted",
    "qualification",
    "responsibility",
    "jobtitle",
  ],
};

/** The list inside a Found that an array field naming its family wants: a BreadcrumbList's items, a FAQPage's questions. */
export const LIST_PROPERTY: Record<string, string> = {
  BreadcrumbList: "itemListElement",
  ItemList: "itemListElement",
  FAQPage: "mainEntity",
};
