/** Main language of a country, for Accept-Language when only `location` is given. */
const COUNTRY_LANGUAGE: Record<string, string> = {
  AR: "es",
  AT: "de",
  AU: "en",
  BE: "nl",
  BR: "pt",
  CA: "en",
  CH: "de",
  CL: "es",
  CN: "zh",
  CO: "es",
  CZ: "cs",
  DE: "de",
  DK: "da",
  EG: "ar",
  ES: "es",
  FI: "fi",
  FR: "fr",
  GB: "en",
  GR: "el",
  HK: "zh",
  HU: "hu",
  ID: "id",
  IE: "en",
  IL: "he",
  IN: "hi",
  IT: "it",
  JP: "ja",
  KR: "ko",
  MX: "es",
  MY: "ms",
  NL: "nl",
  NO: "nb",
  NZ: "en",
  PE: "es",
  PH: "en",
  PK: "ur",
  PL: "pl",
  PT: "pt",
  RO: "ro",
  RU: "ru",
  SA: "ar",
  SE: "sv",
  SG: "en",
  SK: "sk",
  TH: "th",
  TR: "tr",
  TW: "zh",
  UA: "uk",
  US: "en",
  VN: "vi",
  ZA: "en",
};

/**
 * Builds an Accept-Language value from explicit `languages` (highest priority,
 * in order) and/or a `location` country code; English is always the last
 * fallback. Returns undefined when neither is given (the engine's default applies).
 */
export function acceptLanguage(location?: string, languages?: string[]): string | undefined {
  const tags: string[] = [];
  const add = (tag: string | undefined) => {
    const t = tag?.trim();
    if (t && !tags.some((x) => x.toLowerCase() === t.toLowerCase())) tags.push(t);
  };
  for (const lang of languages ?? []) add(lang);
  if (location) {
    const country = location.toUpperCase();
    const lang = COUNTRY_LANGUAGE[country] ?? "en";
    if (!languages?.length) add(`${lang}-${country}`);
    add(lang);
  }
  if (!tags.length) return undefined;
  add("en");
  return tags.map((t, i) => (i === 0 ? t : `${t};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(",");
}
