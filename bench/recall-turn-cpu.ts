/**
 * CPU of conversation recall in one Postgres turn, in this process (no database): the turn's
 * JS side of recall — query terms, the live tail's index (a ListRecallSource over 24
 * messages), merging a prefetched transcript answer of 6 rows the database ranked (the most
 * the read batch returns at recall_max_items 5: the best 5 and the transcript's last message)
 * and the fusion, plus the index terms of the 2 messages the turn moves to the transcript. Prints the median over many turns, after a warm-up.
 *
 *   npx tsx bench/recall-turn-cpu.ts
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { indexTermsOf, queryTerms, recallForTurn, withTail } from "../src/memory/recall/index.ts";

const lines = [
  "my dog likes the park near the river",
  "I work as a nurse in the night shift",
  "we planned a trip to Jeju island next spring",
  "나는 매운 음식을 좋아해요 특히 떡볶이",
  "my sister plays the cello in an orchestra",
  "어제 회사에서 발표를 했는데 긴장했어요",
];
const reply = (t: string) => `offline-model: received=20 has_prior=true\nyou said: ${t}`;
const candidates = Array.from({ length: 6 }, (_, i) => {
  const text = i % 2 === 0 ? lines[i % lines.length] : reply(lines[(i - 1) % lines.length] ?? "");
  return {
    id: `m${i}`,
    seq: i * 3,
    role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
    text: text ?? "",
    terms: [],
    scores: { own: 1 + i / 10, previous: i / 20, next: 0 },
  };
});
const prefetched = { candidates, stats: { docs: 400, avgLength: 12, df: {} } };

async function turn(i: number): Promise<number> {
  const tail = Array.from({ length: 24 }, (_, k) => {
    const text = `${lines[(i + k) % lines.length]} (${i}.${k})`;
    const message =
      k % 2 === 0
        ? new HumanMessage({ content: text, id: `t${i}.${k}` })
        : new AIMessage({ content: reply(text), id: `t${i}.${k}` });
    return { seq: 400 + k, message };
  });
  const start = process.cpuUsage();
  const source = withTail(prefetched, tail);
  await recallForTurn(source, {
    threadId: "t",
    question: "what does my sister play, and where is the trip?",
    exclude: new Set(tail.slice(-20).map((m) => m.message.id as string)),
    maxItems: 5,
  });
  queryTerms("what does my sister play, and where is the trip?");
  for (const m of tail.slice(0, 2)) indexTermsOf(m.message);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

for (let i = 0; i < 200; i++) await turn(i);
const samples: number[] = [];
for (let i = 0; i < 500; i++) samples.push(await turn(i));
samples.sort((a, b) => a - b);
const at = (q: number) => samples[Math.floor(q * (samples.length - 1))]?.toFixed(3);
console.log(`recall CPU per turn (ms): median ${at(0.5)}, p90 ${at(0.9)}, after 200 warm-up turns`);
