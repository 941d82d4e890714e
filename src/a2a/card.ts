/**
 * The agent card, in the shape the `A2A-Version` request header asks for:
 *
 * - absent, empty or 0.x → the v0.3 card (`url`, `preferredTransport`,
 *   `protocolVersion: "0.3"`), which also embeds the v1.0 `supportedInterfaces`. A missing
 *   header means 0.3 by the A2A spec, and the SDK's own card handler answers the same way;
 *   the SDK's v1.0 client always sends `A2A-Version: 1.0` when it fetches the card.
 * - anything else (1.0 and later, or unparsable) → the v1.0 card (`supportedInterfaces`).
 *
 * Both advertise the same JSON-RPC endpoint, which speaks both versions (routed by method).
 * The SDK does not export its v1.0 → v0.3 card translator, so the v0.3 card is written here
 * for the fields this card uses.
 *
 * Authentication (A2A_AUTH) is declared the way each version does it, so clients know what to
 * send: v0.3 `securitySchemes` + `security`, v1.0 `securitySchemes` + `securityRequirements`.
 * Both `api_key` and `jwt` are an HTTP Bearer scheme (`Authorization: Bearer …`). With `none`
 * there is no scheme, and an optional extension ({@link AUTH_EXTENSION_URI}, which clients
 * that do not know it ignore) says in words that the agent is open.
 */
import type { AgentCard, AgentExtension, SecurityScheme } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import type { A2AAuthConfig } from "../runtime/auth-config.ts";
import { REST_PATH } from "./rest-route.ts";
import type { A2ACardOptions } from "./types.ts";

const TEXT_MODES = ["text/plain"];

/** The optional card extension that describes how this agent authenticates callers. */
export const AUTH_EXTENSION_URI = "urn:llamon:a2a-auth:v1";

interface Scheme {
  readonly name: string;
  readonly bearerFormat: string;
  readonly description: string;
}

function schemeOf(auth: A2AAuthConfig): Scheme | undefined {
  switch (auth.mode) {
    case "none":
      return undefined;
    case "api_key":
      return {
        name: "apiKey",
        bearerFormat: "API key",
        description:
          "An API key issued by the agent's operator, sent as `Authorization: Bearer <key>`. Conversations belong to the key's principal.",
      };
    case "jwt":
      return {
        name: "jwt",
        bearerFormat: "JWT",
        description: `A JWT from the identity provider ${auth.jwt.issuer} (audience ${auth.jwt.audience.join(", ")}), sent as \`Authorization: Bearer <JWT>\` (behind Cloudflare Access, \`Cf-Access-Jwt-Assertion\` is accepted). Conversations belong to the token's "${auth.jwt.principalClaim}" claim.`,
      };
  }
}

function authExtensions(auth: A2AAuthConfig): AgentExtension[] {
  if (auth.mode !== "none") return [];
  return [
    {
      uri: AUTH_EXTENSION_URI,
      description:
        "This agent does not authenticate callers (A2A_AUTH=none): anyone who can reach it can read and continue any conversation whose contextId they know. Meant for local development only.",
      required: false,
      params: { mode: "none" },
    },
  ];
}

export function buildAgentCard(
  options: A2ACardOptions,
  url: string,
  auth: A2AAuthConfig = { mode: "none" },
): AgentCard {
  const scheme = schemeOf(auth);
  const securitySchemes: Record<string, SecurityScheme> = {};
  if (scheme !== undefined) {
    securitySchemes[scheme.name] = {
      scheme: {
        $case: "httpAuthSecurityScheme",
        value: {
          scheme: "Bearer",
          bearerFormat: scheme.bearerFormat,
          description: scheme.description,
        },
      },
    };
  }
  const skills = options.skills ?? [
    {
      id: "conversation",
      name: "Conversation",
      description: options.description,
      tags: ["chat", "multi-turn", "memory"],
    },
  ];
  return {
    name: options.name,
    description: options.description,
    version: options.version,
    supportedInterfaces: duplicateInterfacesForLegacy(
      [
        { url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
        // The HTTP+JSON binding (rest-route.ts), 1.0 only, under the same mount.
        {
          url: `${url.replace(/\/$/, "")}${REST_PATH}`,
          protocolBinding: "HTTP+JSON",
          tenant: "",
          protocolVersion: "1.0",
        },
      ],
      ["JSONRPC"],
    ),
    provider: options.provider,
    documentationUrl: options.documentationUrl,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: authExtensions(auth),
      extendedAgentCard: false,
    },
    securitySchemes,
    securityRequirements:
      scheme === undefined ? [] : [{ schemes: { [scheme.name]: { list: [] } } }],
    defaultInputModes: TEXT_MODES,
    defaultOutputModes: TEXT_MODES,
    skills: skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: skill.tags ?? [],
      examples: skill.examples ?? [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

/** The v0.3 JSON shape of a card built by buildAgentCard. */
export function legacyAgentCard(card: AgentCard): Record<string, unknown> {
  const primary = card.supportedInterfaces.find((i) => i.protocolVersion === "0.3");
  const out: Record<string, unknown> = {
    name: card.name,
    description: card.description,
    version: card.version,
    url: primary?.url ?? card.supportedInterfaces[0]?.url ?? "/",
    preferredTransport: primary?.protocolBinding ?? "JSONRPC",
    protocolVersion: "0.3",
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      pushNotifications: card.capabilities?.pushNotifications ?? false,
      ...(card.capabilities?.extensions.length
        ? { extensions: structuredClone(card.capabilities.extensions) }
        : {}),
    },
    securitySchemes: legacySecuritySchemes(card),
    security: card.securityRequirements.map((r) =>
      Object.fromEntries(Object.entries(r.schemes).map(([name, scopes]) => [name, scopes.list])),
    ),
    defaultInputModes: [...card.defaultInputModes],
    defaultOutputModes: [...card.defaultOutputModes],
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: [...skill.tags],
      ...(skill.examples.length > 0 ? { examples: [...skill.examples] } : {}),
    })),
    supportsAuthenticatedExtendedCard: card.capabilities?.extendedAgentCard ?? false,
    supportedInterfaces: structuredClone(card.supportedInterfaces),
  };
  if (card.provider !== undefined) out.provider = { ...card.provider };
  if (card.documentationUrl) out.documentationUrl = card.documentationUrl;
  return out;
}

/** v0.3 security schemes (OpenAPI shape) of the HTTP schemes this card declares. */
function legacySecuritySchemes(card: AgentCard): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, scheme] of Object.entries(card.securitySchemes)) {
    if (scheme.scheme?.$case !== "httpAuthSecurityScheme") continue;
    const http = scheme.scheme.value;
    out[name] = {
      type: "http",
      scheme: http.scheme.toLowerCase(),
      bearerFormat: http.bearerFormat,
      description: http.description,
    };
  }
  return out;
}

/** True when the `A2A-Version` header asks for the v0.3 card (absent means 0.3). */
export function wantsLegacyCard(versionHeader: string | undefined): boolean {
  const trimmed = versionHeader?.trim() ?? "";
  if (trimmed === "") return true;
  const match = /^(\d+)(?:\.\d+)*$/.exec(trimmed);
  if (match === null) return false;
  return Number(match[1]) === 0;
}

/** The JSON-RPC endpoint next to a card served at `cardPath`: origin + mount path + "/". */
export function endpointUrl(requestUrl: string, cardPath: string): string {
  const url = new URL(requestUrl);
  const mount = url.pathname.endsWith(cardPath)
    ? url.pathname.slice(0, url.pathname.length - cardPath.length)
    : "";
  return `${url.origin}${mount}/`;
}
