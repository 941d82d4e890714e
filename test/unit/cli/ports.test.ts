import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertPortsFree, listenError } from "../../../packages/cli/src/cli/ports.ts";
import { isLlamonError } from "../../../src/errors.ts";
import { caught } from "../../helpers/caught.ts";

let holder: Server;
let taken: number;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((r) => holder.listen(0, "127.0.0.1", () => r()));
  taken = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((r) => holder.close(() => r()));
});

describe("R9.3 pinned ports of a local run are checked before anything starts", () => {
  it("a taken port is PORT_IN_USE naming the port and its flag", async () => {
    const error = await caught(assertPortsFree([{ flag: "--proxy-port", port: taken }]));
    expect(isLlamonError(error, "PORT_IN_USE")).toBe(true);
    expect(String((error as Error).message)).toContain(
      `port ${taken} (--proxy-port) is already in use on 127.0.0.1`,
    );
  });

  it("one port for two flags is refused; a port only checked for that is not listened on", async () => {
    const error = await caught(
      assertPortsFree([
        { flag: "--port", port: taken, probe: false },
        { flag: "--pg-port", port: taken },
      ]),
    );
    expect(String((error as Error).message)).toContain("--port and --pg-port are both");
    await assertPortsFree([{ flag: "--port", port: taken, probe: false }]);
  });

  it("0 and unset pick a free port later: nothing to check", async () => {
    await assertPortsFree([
      { flag: "--proxy-port", port: 0 },
      { flag: "--pg-port", port: undefined },
    ]);
  });

  it("a listen that loses the port to a race reads the same as the check", () => {
    const race = Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" });
    const error = listenError(race, 4444, "--pg-port");
    expect(String((error as Error).message)).toContain("port 4444 (--pg-port) is already in use");
    expect(listenError(race, 0, "--pg-port")).toBe(race);
  });
});
