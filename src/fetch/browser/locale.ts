/** Where a country's browser appears to be: its main time zone and its capital's coordinates. */
export interface CountryLocale {
  /** IANA time zone, for page.emulateTimezone. */
  timezone: string;
  /** The capital's coordinates; absent for an unknown country (no geolocation is granted). */
  geolocation?: { latitude: number; longitude: number };
}

/** [IANA zone, latitude, longitude] of the capital, for the countries requests name most. */
const COUNTRIES: Record<string, readonly [string, number, number]> = {
  AR: ["America/Argentina/Buenos_Aires", -34.6037, -58.3816],
  AT: ["Europe/Vienna", 48.2082, 16.3738],
  AU: ["Australia/Sydney", -35.2809, 149.13],
  BE: ["Europe/Brussels", 50.8503, 4.3517],
  BR: ["America/Sao_Paulo", -15.7939, -47.8828],
  CA: ["America/Toronto", 45.4215, -75.6972],
  CH: ["Europe/Zurich", 46.948, 7.4474],
  CL: ["America/Santiago", -33.4489, -70.6693],
  CN: ["Asia/Shanghai", 39.9042, 116.4074],
  CO: ["America/Bogota", 4.711, -74.0721],
  CZ: ["Europe/Prague", 50.0755, 14.4378],
  DE: ["Europe/Berlin", 52.52, 13.405],
  DK: ["Europe/Copenhagen", 55.6761, 12.5683],
  EG: ["Africa/Cairo", 30.0444, 31.2357],
  ES: ["Europe/Madrid", 40.4168, -3.7038],
  FI: ["Europe/Helsinki", 60.1699, 24.9384],
  FR: ["Europe/Paris", 48.8566, 2.3522],
  GB: ["Europe/London", 51.5074, -0.1278],
  GR: ["Europe/Athens", 37.9838, 23.7275],
  HK: ["Asia/Hong_Kong", 22.3193, 114.1694],
  HU: ["Europe/Budapest", 47.4979, 19.0402],
  ID: ["Asia/Jakarta", -6.2088, 106.8456],
  IE: ["Europe/Dublin", 53.3498, -6.2603],
  IL: ["Asia/Jerusalem", 31.7683, 35.2137],
  IN: ["Asia/Kolkata", 28.6139, 77.209],
  IT: ["Europe/Rome", 41.9028, 12.4964],
  JP: ["Asia/Tokyo", 35.6762, 139.6503],
  KR: ["Asia/Seoul", 37.5665, 126.978],
  MX: ["America/Mexico_City", 19.4326, -99.1332],
  MY: ["Asia/Kuala_Lumpur", 3.139, 101.6869],
  NL: ["Europe/Amsterdam", 52.3676, 4.9041],
  NO: ["Europe/Oslo", 59.9139, 10.7522],
  NZ: ["Pacific/Auckland", -41.2865, 174.7762],
  PE: ["America/Lima", -12.0464, -77.0428],
  PH: ["Asia/Manila", 14.5995, 120.9842],
  PK: ["Asia/Karachi", 33.6844, 73.0479],
  PL: ["Europe/Warsaw", 52.2297, 21.0122],
  PT: ["Europe/Lisbon", 38.7223, -9.1393],
  RO: ["Europe/Bucharest", 44.4268, 26.1025],
  RU: ["Europe/Moscow", 55.7558, 37.6173],
  SA: ["Asia/Riyadh", 24.7136, 46.6753],
  SE: ["Europe/Stockholm", 59.3293, 18.0686],
  SG: ["Asia/Singapore", 1.3521, 103.8198],
  SK: ["Europe/Bratislava", 48.1486, 17.1077],
  TH: ["Asia/Bangkok", 13.7563, 100.5018],
  TR: ["Europe/Istanbul", 39.9334, 32.8597],
  TW: ["Asia/Taipei", 25.033, 121.5654],
  UA: ["Europe/Kyiv", 50.4501, 30.5234],
  US: ["America/New_York", 38.9072, -77.0369],
  VN: ["Asia/Ho_Chi_Minh", 21.0278, 105.8342],
  ZA: ["Africa/Johannesburg", -25.7479, 28.2293],
};

/** A `location` as the country code it names ("  de " is "DE"): what pages and their settings are kept apart by. */
export function countryKey(location: string | undefined): string {
  return location?.trim().toUpperCase() ?? "";
}

/**
 * The time zone and capital coordinates of an ISO 3166-1 alpha-2 country (any case).
 * Unknown or absent countries get UTC and no geolocation rather than a guess.
 */
export function countryLocale(country: string | undefined): CountryLocale {
  const entry = country ? COUNTRIES[countryKey(country)] : undefined;
  if (!entry) return { timezone: "UTC" };
  const [timezone, latitude, longitude] = entry;
  return { timezone, geolocation: { latitude, longitude } };
}
