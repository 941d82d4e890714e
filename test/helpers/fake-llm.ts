/**
 * A fake OpenAI-compatible chat model server for the streaming tests (the model provider is
 * the one thing tests may stand in for). `POST /v1/chat/completions` answers
 * `fake-llm: received=<non-system messages> words: alpha beta gamma delta epsilon`, a word per
 * chunk when asked to stream (`stream: true`: SSE chunks, usage, `[DONE]`), whole otherwise.
 *
 * A user message containing `[gate:ID]` holds the stream after its first two words until the
 * test calls `POST /release/ID`, so a test can see chunks arrive while the model has not
 * finished — proven by the server's own state, never by timing: `GET /state/ID` says how many
 * answers for ID it has finished and returns the request bodies it got for ID (`[tag:ID]`
 * records without holding).
 *
 * A facts job's call (its system message starts with the facts instruction's first line,
 * src/memory/facts/model.ts) is answered from the script the test posted for the tag in its
 * input (`POST /facts/ID` with `{ "answers": [ { "content": "…" } | { "status": 500 } | { "hang": true } ] }`, one
 * answer per call, in order); with no script left it answers `{"operations":[]}`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { FACT_OPERATIONS_HEADLINE } from "../../src/memory/facts/model.ts";

export const FAKE_LLM_WORDS = ["alpha", "beta", "gamma", "delta", "epsilon"];

/** One scripted answer to a facts call: a content, an HTTP error status, or no answer at all. */
export type FactsAnswer = { content: string } | { status: number } | { hang: true };

interface Tagged {
  bodies: unknown[];
  facts: FactsAnswer[];
  finished: number;
  release?: () => void;
  released: boolean;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

export async function startFakeLlm(): Promise<{ url: string; close: () => Promise<void> }> {
  const tags = new Map<string, Tagged>();
  const tagged = (id: string): Tagged => {
    let t = tags.get(id);
    if (t === undefined) {
      t = { bodies: [], facts: [], finished: 0, released: false };
      tags.set(id, t);
    }
    return t;
  };

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.parse(await readBody(req)) as {
      stream?: boolean;
      messages: { role: string; content: string }[];
    };
    const lastUser = [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const match = /\[(gate|tag):([\w-]+)\]/.exec(lastUser);
    const record = match ? tagged(match[2] as string) : undefined;
    record?.bodies.push(body);
    const system = body.messages.find((m) => m.role === "system")?.content ?? "";
    if (String(system).startsWith(FACT_OPERATIONS_HEADLINE)) {
      const scripted = record?.facts.shift() ?? { content: '{"operations":[]}' };
      if ("hang" in scripted) return; // the caller's timeout ends it
      if ("status" in scripted) {
        res.writeHead(scripted.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "scripted failure" } }));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "fake-facts",
            model: "fake",
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: scripted.content },
                finish_reason: "stop",
              },
            ],
          }),
        );
      }
      if (record) record.finished += 1;
      return;
    }
    const received = body.messages.filter((m) => m.role !== "system").length;
    const words = [`fake-llm: received=${received} words:`, ...FAKE_LLM_WORDS];
    const text = words.join(" ");
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "fake-1",
          model: "fake",
          choices: [
            { index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" },
          ],
        }),
      );
      if (record) record.finished += 1;
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (data: unknown) =>
      res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    const chunk = (content: string, finish: string | null = null) => ({
      id: "fake-1",
      object: "chat.completion.chunk",
      model: "fake",
      choices: [{ index: 0, delta: finish ? {} : { content }, finish_reason: finish }],
    });
    for (const [i, word] of words.entries()) {
      if (i === 2 && match?.[1] === "gate" && record !== undefined && !record.released) {
        await new Promise<void>((resolve) => {
          record.release = resolve;
        });
      }
      send(chunk(i === 0 ? word : ` ${word}`));
    }
    send(chunk("", "stop"));
    send({
      id: "fake-1",
      model: "fake",
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 },
    });
    send("[DONE]");
    res.end();
    if (record) record.finished += 1;
  };

  const server: Server = createServer((req, res) => {
    const url = req.url ?? "";
    if (req.method === "POST" && url.endsWith("/chat/completions")) {
      void answer(req, res);
      return;
    }
    const release = /^\/release\/([\w-]+)$/.exec(url);
    if (req.method === "POST" && release) {
      const t = tagged(release[1] as string);
      t.released = true;
      t.release?.();
      res.writeHead(204).end();
      return;
    }
    const facts = /^\/facts\/([\w-]+)$/.exec(url);
    if (req.method === "POST" && facts) {
      void readBody(req).then((text) => {
        const { answers } = JSON.parse(text) as { answers: FactsAnswer[] };
        tagged(facts[1] as string).facts.push(...answers);
        res.writeHead(204).end();
      });
      return;
    }
    const state = /^\/state\/([\w-]+)$/.exec(url);
    if (req.method === "GET" && state) {
      const t = tagged(state[1] as string);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ finished: t.finished, bodies: t.bodies }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
