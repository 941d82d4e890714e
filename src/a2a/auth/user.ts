/**
 * The caller of an A2A request as the SDK sees it: a real `User` (its `userName` is the
 * principal), so the SDK's own per-owner scoping (event buses, task write locks) and our
 * task store's owner check both key on who is calling.
 */
import type { ServerCallContext, User } from "@a2a-js/sdk/server";
import { ANONYMOUS_PRINCIPAL } from "../../runtime/thread-keys.ts";

export class A2AUser implements User {
  constructor(
    /** The principal (`anonymous` for A2A_AUTH=none). */
    readonly principal: string,
    /** True when credentials were checked (api_key, jwt). */
    private readonly authenticated: boolean,
  ) {}

  get isAuthenticated(): boolean {
    return this.authenticated;
  }

  get userName(): string {
    return this.principal;
  }
}

/** The principal of a call; an SDK-made context without a user counts as anonymous. */
export function principalOf(context: ServerCallContext | undefined): string {
  const name = context?.user?.userName;
  return typeof name === "string" && name !== "" ? name : ANONYMOUS_PRINCIPAL;
}
