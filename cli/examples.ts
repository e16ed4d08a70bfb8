/** Examples printed at the end of each command's --help (and in docs/reference/cli.md), by command path. */
export const EXAMPLES: Record<string, string[]> = {
  "siphon fetch": [
    "siphon fetch https://example.com                      # markdown on stdout",
    "siphon fetch https://example.com --json               # the whole result",
    "siphon fetch ./report.pdf --format text               # a local file",
    "siphon fetch https://docs.example/x --chunks          # chunks for retrieval, one a line",
    "siphon fetch https://spa.example --render --wait 500  # force the browser",
  ],
  "siphon crawl": [
    "siphon crawl https://docs.example --limit 200 -o ./docs-md/",
    "siphon crawl https://docs.example --include-paths '^/guide' --json | jq .url",
    "siphon crawl https://docs.example --chunks -o ./corpus/        # adds chunks.jsonl",
  ],
  "siphon batch": [
    "siphon batch urls.txt --json",
    "cat urls.txt | siphon batch - --formats markdown,links -o ./pages/",
  ],
  "siphon map": ["siphon map https://example.com", "siphon map https://example.com --search blog --limit 50"],
  "siphon llmstxt": [
    "siphon llmstxt https://docs.example                  # llms.txt on stdout",
    "siphon llmstxt https://docs.example -o ./llms/       # llms.txt and llms-full.txt",
    "siphon llmstxt https://docs.example --regenerate --llm openai --llm-key $OPENAI_API_KEY",
  ],
  "siphon search": ['siphon search "tide mills" --count 5', 'siphon search "tide mills" --scrape --json'],
  "siphon ask": ['siphon ask "what wheel does a tide mill use"'],
  "siphon answer": ['siphon answer "How does a tide mill work?" --llm openai --llm-key $OPENAI_API_KEY'],
  "siphon agent": ['siphon agent "Compare the pricing of X and Y" --llm openai --llm-key $OPENAI_API_KEY'],
  "siphon research": ['siphon research "Is Bun\'s SQLite faster than better-sqlite3?" --deep --stream'],
  "siphon extract": [
    "siphon extract https://shop.example/p/42 --schema product.json",
    "siphon extract https://shop.example/p/42 --prompt 'name and price' --llm openai --llm-key $OPENAI_API_KEY",
  ],
  "siphon screenshot": ["siphon screenshot https://example.com -o page.png --full-page"],
  "siphon youtube": ['siphon youtube "https://www.youtube.com/watch?v=ID" --format srt'],
  "siphon watch": [
    "siphon watch add https://example.com/pricing --every 60",
    "siphon watch check ID --exit-code     # exit 1 when it changed",
  ],
  "siphon jobs": ["siphon jobs --type crawl --status processing", "siphon jobs crawl_… -o ./pages/ --wait"],
  "siphon keys": ["siphon keys create --name ci --tier pro", "siphon keys list", "siphon keys revoke key_…"],
  "siphon usage": ["siphon usage", "siphon usage --api-url https://siphon.example --json"],
  "siphon serve": [
    "siphon serve",
    "siphon serve --host 0.0.0.0 --port 8080",
    "REDIS_URL=redis://… siphon serve --role worker",
  ],
  "siphon mcp": ["siphon mcp                    # for a desktop client's stdio config"],
  "siphon config": ["siphon config", "siphon config --json | jq '.[] | select(.source != \"default\")'"],
  "siphon completion": [
    'eval "$(siphon completion bash)"',
    "siphon completion fish > ~/.config/fish/completions/siphon.fish",
  ],
  "siphon doctor": ["siphon doctor", "siphon doctor --json"],
  "siphon migrate": ["siphon migrate"],
};
