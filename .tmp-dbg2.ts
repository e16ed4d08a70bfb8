import { readFileSync } from "node:fs";
import { extractHtml } from "./src/extract/index.ts";
const [file, mode] = process.argv.slice(2);
const out = extractHtml(readFileSync(file!, "utf8"), "https://example.com/", { format: (mode as "text") ?? "text", onlyMainContent: true, images: false });
console.log(out.content);
