import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Cached fetch results, keyed by URL plus every option that changes the output. */
export const cacheEntries = sqliteTable(
  "cache_entries",
  {
    key: text("key").primaryKey(),
    url: text("url").notNull(),
    /** The Fetch result as JSON. */
    value: text("value").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("cache_entries_created_at").on(table.createdAt)],
);
