/**
 * The keys of Neon's error body, in the order Neon's proxy writes them
 * (proxy/src/serverless/sql_over_http.rs): what the local Neon's error bodies are checked
 * against, written out here rather than taken from src/dev so the tests stay independent of it.
 */
export const NEON_ERROR_KEYS = [
  "message",
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "severity",
  "where",
  "table",
  "column",
  "schema",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
];
