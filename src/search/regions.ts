import { SiphonError } from "../errors.ts";

/**
 * Where results should come from, read from a request's `country` (a
 * DuckDuckGo-style region "us-en": country, then language) and `location`
 * (a place ending with its country: "Berlin, Germany"). Each provider maps it
 * to its own parameters (docs/search-and-answers.md, Search).
 */
export interface Region {
  /** ISO 3166-1 alpha-2, lower case; absent for DuckDuckGo's "no region" (wt-wt). */
  country?: string;
  /** ISO 639-1 language, lower case, when `country` names one. */
  language?: string;
  /** The country's main language, when only `location` names the country (engines that need a locale use it). */
  impliedLanguage?: string;
  /** DuckDuckGo's region code (kl) for it, when DuckDuckGo has one. */
  ddg?: string;
  /** From `location`: the city (first part) and state or province (middle part). */
  city?: string;
  state?: string;
  /** What the caller wrote, for messages. */
  given: string;
}

/**
 * DuckDuckGo's regions (its kl values, from its settings page) with the ISO
 * country and language each stands for. DuckDuckGo writes some of them its
 * own way (uk for GB, sl for SI, jp and kr for the languages ja and ko).
 */
const DDG_REGIONS: [kl: string, country: string | undefined, language: string | undefined][] = [
  ["wt-wt", undefined, undefined],
  ["us-en", "us", "en"],
  ["uk-en", "gb", "en"],
  ["ar-es", "ar", "es"],
  ["au-en", "au", "en"],
  ["at-de", "at", "de"],
  ["be-fr", "be", "fr"],
  ["be-nl", "be", "nl"],
  ["br-pt", "br", "pt"],
  ["bg-bg", "bg", "bg"],
  ["ca-en", "ca", "en"],
  ["ca-fr", "ca", "fr"],
  ["ct-ca", "es", "ca"],
  ["cl-es", "cl", "es"],
  ["cn-zh", "cn", "zh"],
  ["co-es", "co", "es"],
  ["hr-hr", "hr", "hr"],
  ["cz-cs", "cz", "cs"],
  ["dk-da", "dk", "da"],
  ["ee-et", "ee", "et"],
  ["fi-fi", "fi", "fi"],
  ["fr-fr", "fr", "fr"],
  ["de-de", "de", "de"],
  ["gr-el", "gr", "el"],
  ["hu-hu", "hu", "hu"],
  ["in-en", "in", "en"],
  ["id-id", "id", "id"],
  ["id-en", "id", "en"],
  ["ie-en", "ie", "en"],
  ["il-he", "il", "he"],
  ["it-it", "it", "it"],
  ["jp-jp", "jp", "ja"],
  ["kr-kr", "kr", "ko"],
  ["lv-lv", "lv", "lv"],
  ["lt-lt", "lt", "lt"],
  ["xl-es", undefined, "es"],
  ["my-ms", "my", "ms"],
  ["my-en", "my", "en"],
  ["mx-es", "mx", "es"],
  ["nl-nl", "nl", "nl"],
  ["nz-en", "nz", "en"],
  ["no-no", "no", "no"],
  ["pe-es", "pe", "es"],
  ["ph-en", "ph", "en"],
  ["ph-tl", "ph", "tl"],
  ["pl-pl", "pl", "pl"],
  ["pt-pt", "pt", "pt"],
  ["ro-ro", "ro", "ro"],
  ["ru-ru", "ru", "ru"],
  ["sg-en", "sg", "en"],
  ["sk-sk", "sk", "sk"],
  ["sl-sl", "si", "sl"],
  ["za-en", "za", "en"],
  ["es-es", "es", "es"],
  ["se-sv", "se", "sv"],
  ["ch-de", "ch", "de"],
  ["ch-fr", "ch", "fr"],
  ["ch-it", "ch", "it"],
  ["th-th", "th", "th"],
  ["tr-tr", "tr", "tr"],
  ["ua-uk", "ua", "uk"],
  ["ue-es", "us", "es"],
  ["ve-es", "ve", "es"],
  ["vn-vi", "vn", "vi"],
];

const BY_KL = new Map(DDG_REGIONS.map(([kl, country, language]) => [kl, { country, language }]));

/** DuckDuckGo's own spellings of ISO codes, for an xx-yy region it does not list. */
const DDG_COUNTRY_TO_ISO: Record<string, string> = { uk: "gb", sl: "si" };
const DDG_LANGUAGE_TO_ISO: Record<string, string> = { jp: "ja", kr: "ko" };

/** Other names people give countries, beside their English names and ISO codes. */
const COUNTRY_ALIASES: Record<string, string> = {
  usa: "us",
  "united states of america": "us",
  america: "us",
  uk: "gb",
  "great britain": "gb",
  britain: "gb",
  england: "gb",
  scotland: "gb",
  wales: "gb",
  "south korea": "kr",
  korea: "kr",
  "czech republic": "cz",
  holland: "nl",
};

/** Codes ICU still names but that stand for no country today (or for a group): they must not shadow the real one. */
const RETIRED = new Set([
  "AN",
  "BU",
  "CS",
  "DD",
  "EU",
  "EZ",
  "FX",
  "NT",
  "QO",
  "SU",
  "TP",
  "UK",
  "UN",
  "YD",
  "YU",
  "ZR",
]);

let countryNames: Map<string, string> | undefined;

/** English country names to ISO codes, from the runtime's ICU data (built once, on first use). */
function countryByName(name: string): string | undefined {
  if (!countryNames) {
    countryNames = new Map();
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    const A = 65;
    for (let i = 0; i < 26; i++) {
      for (let j = 0; j < 26; j++) {
        const code = String.fromCharCode(A + i, A + j);
        const english = names.of(code);
        if (!english || english === code || english === "Unknown Region" || RETIRED.has(code)) continue;
        // "Myanmar (Burma)" is found as itself and as "Myanmar".
        for (const name of [english, english.replace(/\s*\(.*\)$/, "")])
          countryNames.set(name.toLowerCase(), code.toLowerCase());
      }
    }
  }
  const key = name.trim().toLowerCase();
  if (/^[a-z]{2}$/.test(key) && [...countryNames.values()].includes(key)) return key;
  return COUNTRY_ALIASES[key] ?? countryNames.get(key);
}

/** DuckDuckGo's region for an ISO country: its first listed one (the country's main language). */
function ddgRegionOf(country: string): { kl: string; language?: string } | undefined {
  const found = DDG_REGIONS.find(([, c]) => c === country);
  return found ? { kl: found[0], language: found[2] } : undefined;
}

function fromCountryParameter(value: string): Region {
  const code = value.toLowerCase();
  const known = BY_KL.get(code);
  if (known) return { country: known.country, language: known.language, ddg: code, given: value };
  const [cc = "", ll = ""] = code.split("-");
  const country = DDG_COUNTRY_TO_ISO[cc] ?? cc;
  if (!countryByName(country)) {
    throw new SiphonError("invalid_request", `country "${value}" names no country siphon knows`, {
      hint: "Write the region as country-language: us-en, uk-en, de-de, fr-fr, ch-fr.",
    });
  }
  return { country, language: DDG_LANGUAGE_TO_ISO[ll] ?? ll, given: value };
}

function fromLocation(value: string): Region {
  const parts = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const last = parts.at(-1) ?? "";
  const country = countryByName(last);
  if (!country) {
    throw new SiphonError(
      "invalid_request",
      `location "${value}" does not end with a country siphon knows ("${last}")`,
      { hint: 'End it with a country name or code: "Germany", "Berlin, Germany", "Austin, Texas, US".' },
    );
  }
  const ddg = ddgRegionOf(country);
  return {
    country,
    impliedLanguage: ddg?.language,
    ddg: ddg?.kl,
    city: parts.length >= 2 ? parts[0] : undefined,
    state: parts.length >= 3 ? parts.slice(1, -1).join(", ") : undefined,
    given: value,
  };
}

/**
 * The region a request asks for, or undefined when it names none. `country`
 * sets country and language; `location` adds a city and state and, without
 * `country`, sets the country. Throws invalid_request for a country siphon
 * cannot read or when the two name different countries.
 */
export function resolveRegion(country?: string, location?: string): Region | undefined {
  const byCountry = country ? fromCountryParameter(country) : undefined;
  const byLocation = location ? fromLocation(location) : undefined;
  if (!byCountry) return byLocation;
  if (!byLocation) return byCountry;
  if (byCountry.country && byCountry.country !== byLocation.country) {
    throw new SiphonError(
      "invalid_request",
      `country "${country}" and location "${location}" name different countries`,
      { hint: "Give one of them, or make them agree." },
    );
  }
  return { ...byCountry, city: byLocation.city, state: byLocation.state, given: `${country}, ${location}` };
}

/** DuckDuckGo's region codes, for messages. */
export function ddgRegionCodes(): string[] {
  return DDG_REGIONS.map(([kl]) => kl);
}
