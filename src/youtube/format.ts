import type { YoutubeFormat, YoutubeResponse } from "../schemas/youtube.ts";
import type { Segment } from "./captions.ts";

/** "01:02:03,450" (SubRip) or "01:02:03.450" (WebVTT). */
function cueTime(seconds: number, separator: "," | "."): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** "4:05" or "1:02:03", as YouTube writes a timestamp. */
export function clock(seconds: number): string {
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** SubRip: numbered cues. */
export function toSrt(segments: readonly Segment[]): string {
  return segments
    .map(
      (s, i) => `${i + 1}\n${cueTime(s.start, ",")} --> ${cueTime(s.start + s.duration, ",")}\n${s.text}\n`,
    )
    .join("\n");
}

/** WebVTT: cue text escaped as the format requires (&, < and > are markup there). */
export function toVtt(segments: readonly Segment[]): string {
  const escapeCue = (text: string) =>
    text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const cues = segments.map(
    (s) => `${cueTime(s.start, ".")} --> ${cueTime(s.start + s.duration, ".")}\n${escapeCue(s.text)}\n`,
  );
  return `WEBVTT\n\n${cues.join("\n")}`;
}

/** A paragraph of the markdown transcript is cut after about this many characters. */
const PARAGRAPH_CHARS = 600;

/** Segments as paragraphs of about PARAGRAPH_CHARS, each opened by the time it starts at. */
function paragraphs(segments: readonly Segment[]): string[] {
  const out: string[] = [];
  let current: Segment[] = [];
  let length = 0;
  const flush = () => {
    if (current[0]) out.push(`**[${clock(current[0].start)}]** ${current.map((s) => s.text).join(" ")}`);
    current = [];
    length = 0;
  };
  for (const segment of segments) {
    current.push(segment);
    length += segment.text.length + 1;
    if (length >= PARAGRAPH_CHARS && /[.!?…"”)]$/.test(segment.text)) flush();
  }
  flush();
  return out;
}

/** Markdown: title, facts, chapters, then the transcript (a section per chapter when there are chapters). */
export function toMarkdown(video: YoutubeResponse): string {
  const facts = [
    `- Channel: ${video.channel}`,
    `- URL: ${video.url}`,
    `- Duration: ${clock(video.duration)}`,
    ...(video.publishDate ? [`- Published: ${video.publishDate}`] : []),
    `- Transcript: ${video.language}${video.automatic ? " (automatic captions)" : ""}`,
  ];
  const parts = [`# ${video.title}`, facts.join("\n")];
  if (video.chapters.length) {
    const list = video.chapters.map(
      (c) => `- [${clock(c.start)}](${video.url}&t=${Math.floor(c.start)}s) ${c.title}`,
    );
    parts.push(`## Chapters\n\n${list.join("\n")}`);
  }
  parts.push("## Transcript");
  if (video.chapters.length) {
    video.chapters.forEach((chapter, i) => {
      const end = video.chapters[i + 1]?.start ?? Number.POSITIVE_INFINITY;
      // The first chapter also takes any cue before 0:00's rounding.
      const inside = video.segments.filter((s) => (i === 0 || s.start >= chapter.start) && s.start < end);
      parts.push(`### ${chapter.title}`, ...paragraphs(inside));
    });
  } else {
    parts.push(...paragraphs(video.segments));
  }
  return `${parts.join("\n\n")}\n`;
}

/** The transcript in one of `siphon youtube`'s formats. */
export function formatTranscript(video: YoutubeResponse, format: YoutubeFormat): string {
  switch (format) {
    case "txt":
      return `${video.fullText}\n`;
    case "srt":
      return toSrt(video.segments);
    case "vtt":
      return toVtt(video.segments);
    case "md":
      return toMarkdown(video);
    case "json":
      return `${JSON.stringify(video, null, 2)}\n`;
  }
}
