/** The repository's own reference agent: what `npm start` runs. */
import { defineAgent } from "../agent/define.ts";

export const referenceAgent = defineAgent({
  name: "llamon reference agent",
  description:
    "A general assistant that remembers the conversation (send the same contextId to continue it).",
  system:
    "You are a helpful assistant. Answer in the language the user writes in. Keep answers short.",
});
