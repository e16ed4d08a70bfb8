import { describe, expect, test } from "bun:test";
import { joinSegments, parseCaptions } from "./captions.ts";

describe("parseCaptions", () => {
  test("json3: cues from events with segs, words joined, line breaks made spaces, window events skipped", () => {
    const body = JSON.stringify({
      wireMagic: "pb3",
      events: [
        { tStartMs: 0, dDurationMs: 9000, id: 1, wpWinPosId: 1 },
        {
          tStartMs: 1040,
          dDurationMs: 2500,
          wWinId: 1,
          segs: [{ utf8: "hola" }, { utf8: " a", tOffsetMs: 240 }, { utf8: " todos" }],
        },
        { tStartMs: 3540, dDurationMs: 10, aAppend: 1, segs: [{ utf8: "\n" }] },
        { tStartMs: 3600, segs: [{ utf8: "two\n<i>lines</i> <b>" }] },
      ],
    });
    expect(parseCaptions(body)).toEqual([
      { text: "hola a todos", start: 1.04, duration: 2.5 },
      { text: "two lines", start: 3.6, duration: 0 },
    ]);
  });

  test("the default XML: attributes in any order, YouTube's double escaping and inline tags undone", () => {
    const body =
      '<?xml version="1.0" encoding="utf-8" ?><transcript>' +
      '<text start="0.32" dur="3.1">Millers&amp;#39; &amp;quot;furrows&amp;quot; &amp;amp; stones</text>' +
      '<text dur="2" start="4.5"><font color="#E5E5E5">slowly</font>\nnow</text>' +
      '<text start="6" dur="1">&amp;lt;i&amp;gt;so&amp;lt;/i&amp;gt; 1 &amp;lt; 2</text>' +
      '<text start="7" dur="1">   </text></transcript>';
    expect(parseCaptions(body)).toEqual([
      { text: `Millers' "furrows" & stones`, start: 0.32, duration: 3.1 },
      { text: "slowly now", start: 4.5, duration: 2 },
      { text: "so 1 < 2", start: 6, duration: 1 },
    ]);
  });

  test("format 3 (srv3): <p t d> in milliseconds, word spans joined", () => {
    const body =
      '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>' +
      '<p t="2000" d="1500"><s>the</s><s t="240"> wheel</s></p><p t="500" d="900">first</p></body></timedtext>';
    expect(parseCaptions(body)).toEqual([
      { text: "first", start: 0.5, duration: 0.9 },
      { text: "the wheel", start: 2, duration: 1.5 },
    ]);
  });

  test("an empty, unknown or broken body has no cues", () => {
    for (const body of ["", "<html><body>Sorry</body></html>", "{not json", '{"events":"x"}']) {
      expect(parseCaptions(body)).toEqual([]);
    }
  });

  test("joinSegments joins the texts with spaces", () => {
    expect(
      joinSegments([
        { text: "a b", start: 0, duration: 1 },
        { text: "c", start: 1, duration: 1 },
      ]),
    ).toBe("a b c");
  });
});
