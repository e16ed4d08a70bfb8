/** A chapter of a video: its title and where it starts, in seconds. */
export interface Chapter {
  title: string;
  start: number;
}

/**
 * A description line that opens with a timestamp ("0:00 Intro", "01:02:03 - Part two",
 * "(4:05) Q&A", "• 12:30 | Outro"), the way YouTube marks chapters.
 */
const CHAPTER_LINE = /^\s*(?:[-•*▶►]\s*)?[([]?((?:\d{1,2}:)?\d{1,2}:\d{2})[)\]]?\s*(?:[-–—:|.]\s*)?(\S.*)$/u;

/** "1:02:03" -> 3723. */
function toSeconds(stamp: string): number {
  return stamp.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

/**
 * The chapters a video's description lists, by YouTube's own rule: lines starting with a
 * timestamp, the first at 0:00, at least three, each later than the one before (and, when the
 * duration is known, before the end). A description that breaks the rule has no chapters.
 */
export function chaptersFrom(description: string, durationSeconds = 0): Chapter[] {
  const chapters: Chapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    const match = CHAPTER_LINE.exec(line);
    if (!match?.[1] || !match[2]) continue;
    const start = toSeconds(match[1]);
    const title = match[2].trim();
    if (chapters.length === 0 && start !== 0) return [];
    const previous = chapters.at(-1);
    if (previous && start <= previous.start) return [];
    if (durationSeconds > 0 && start >= durationSeconds) return [];
    chapters.push({ title, start });
  }
  return chapters.length >= 3 ? chapters : [];
}
