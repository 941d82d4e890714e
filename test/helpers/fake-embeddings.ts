/**
 * A deterministic OpenAI-compatible `/v1/embeddings` server for semantic recall tests (the
 * model provider is the one thing tests may stand in for). Its vectors mean something: each
 * word is mapped to a concept (puppy/dog/pup → dog, called/name/named → name, …; other words
 * are their own concept) and the concepts are hashed into 64 dimensions (bag of concepts,
 * L2-normalised). So "My puppy is called Biscuit" and "What name did I give my dog?" are close
 * although they share no index term, and unrelated small talk is far.
 */
import { createServer, type Server } from "node:http";

const CONCEPTS: Readonly<Record<string, string>> = {
  puppy: "dog",
  pup: "dog",
  dog: "dog",
  dogs: "dog",
  name: "name",
  named: "name",
  called: "name",
  call: "name",
  강아지: "dog",
  멍멍이: "dog",
  이름: "name",
};

const DIMS = 64;

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The vector of one text (see the file header). */
export function conceptVector(text: string): number[] {
  const v = Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const stem = Object.keys(CONCEPTS).find(
      (k) => /\p{Script=Hangul}/u.test(k) && word.startsWith(k),
    );
    const concept = CONCEPTS[word] ?? (stem === undefined ? word : CONCEPTS[stem]) ?? word;
    // Concept words weigh more than the rest: they carry the topic.
    const weight = concept in CONCEPTS || Object.values(CONCEPTS).includes(concept) ? 3 : 1;
    const i = hash(concept) % DIMS;
    v[i] = (v[i] ?? 0) + weight;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export interface FakeEmbeddings {
  /** Base URL up to /v1. */
  readonly baseUrl: string;
  /** Texts received, one entry per request. */
  readonly requests: string[][];
  /** While true, every request answers HTTP 503. */
  failing: boolean;
  close(): Promise<void>;
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const requests: string[][] = [];
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404).end();
        return;
      }
      if (state.failing) {
        res.writeHead(503, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "busy" } }));
        return;
      }
      const parsed = JSON.parse(body) as { input: string[] | string };
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      requests.push(input);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          data: input.map((text, index) => ({ index, embedding: conceptVector(text) })),
        }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
