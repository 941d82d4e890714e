/**
 * The agent's tools (LangChain tools with zod schemas). The model calls them; llamon keeps a
 * tool call and its results together in memory, so a window never shows an orphan result.
 */
import { tool } from "@langchain/core/tools";
import { z } from "zod";

/** Arithmetic on numbers with + - * / and parentheses, evaluated without eval(). */
export function evaluate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  if (tokens.join("") !== expression.replace(/\s+/g, "")) {
    throw new Error(`only numbers, + - * / and parentheses are allowed: "${expression}"`);
  }
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const factor = (): number => {
    const token = next();
    if (token === "-") return -factor();
    if (token === "(") {
      const value = sum();
      if (next() !== ")") throw new Error("missing )");
      return value;
    }
    const value = Number(token);
    if (token === undefined || Number.isNaN(value)) throw new Error("expected a number");
    return value;
  };
  const product = (): number => {
    let value = factor();
    while (peek() === "*" || peek() === "/")
      value = next() === "*" ? value * factor() : value / factor();
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (peek() === "+" || peek() === "-")
      value = next() === "+" ? value + product() : value - product();
    return value;
  };
  const value = sum();
  if (pos !== tokens.length) throw new Error(`unexpected "${peek()}"`);
  return value;
}

export const calculate = tool(async ({ expression }) => String(evaluate(expression)), {
  name: "calculate",
  description:
    "Evaluate an arithmetic expression, e.g. (12.5 + 7) * 3. Use it for any calculation.",
  schema: z.object({ expression: z.string().describe("numbers with + - * / and parentheses") }),
});

export const currentTime = tool(
  async ({ timezone }) =>
    new Intl.DateTimeFormat("en-CA", {
      timeZone: timezone,
      dateStyle: "short",
      timeStyle: "long",
    }).format(new Date()),
  {
    name: "current_time",
    description: "The current date and time in a time zone (IANA name, e.g. Asia/Seoul).",
    schema: z.object({ timezone: z.string().default("Asia/Seoul") }),
  },
);

export const tools = [calculate, currentTime];
