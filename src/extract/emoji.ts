/** What an emoji is made of: pictographs, skin tones, flags' letters, joiners and presentation marks. */
const EMOJI_PART =
  /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0e|\ufe0f|\u20e3/gu;
/** A pictograph, a flag's letter or a keycap: what makes a run of those parts an emoji. */
const EMOJI_CORE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
/** Longest alternative text read as emoji: a few of them, not a sentence. */
const MOST_CHARS = 32;

/**
 * The emoji an image stands for, when its alternative text is nothing else (WordPress's and
 * Twemoji's `<img class="emoji" alt="😀">`): a reader sees the emoji in the line, so markdown and
 * text write it as a character, not a picture. Null for any other image.
 */
export function emojiOf(alt: string | undefined): string | null {
  const text = alt?.trim();
  if (!text || text.length > MOST_CHARS || !EMOJI_CORE.test(text)) return null;
  // Keycaps are a digit, "#" or "*" before U+20E3.
  return text.replace(EMOJI_PART, "").replace(/[#*0-9]/g, "") === "" ? text : null;
}
