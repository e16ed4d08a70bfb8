/** A caption track as the player response lists it. */
export interface CaptionTrack {
  /** Where its caption file is (timedtext). */
  baseUrl: string;
  /** BCP 47 code: en, de, pt-BR. */
  languageCode: string;
  /** As YouTube shows it: "English", "English (auto-generated)". */
  name: string;
  /** Speech recognition (kind "asr") rather than captions someone uploaded. */
  automatic: boolean;
}

/** Each language once, in the order YouTube lists the tracks. */
export function languagesOf(tracks: readonly CaptionTrack[]): string[] {
  return [...new Set(tracks.map((t) => t.languageCode))];
}

/**
 * The track to read: in the requested language when the video has it (its exact code, else
 * the same language in another region: "en" finds "en-GB"), else the best available; uploaded
 * captions win over automatic ones at each step. Null when there are no tracks.
 */
export function chooseTrack(tracks: readonly CaptionTrack[], language?: string): CaptionTrack | null {
  const manual = tracks.filter((t) => !t.automatic);
  const automatic = tracks.filter((t) => t.automatic);
  if (language) {
    const wanted = language.toLowerCase();
    const primary = wanted.split("-")[0];
    const code = (t: CaptionTrack) => t.languageCode.toLowerCase();
    for (const group of [manual, automatic]) {
      const found =
        group.find((t) => code(t) === wanted) ?? group.find((t) => code(t).split("-")[0] === primary);
      if (found) return found;
    }
  }
  return manual[0] ?? automatic[0] ?? null;
}
