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
 */
import type { AgentCard } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import type { A2ACardOptions } from "./types.ts";

const TEXT_MODES = ["text/plain"];

export function buildAgentCard(options: A2ACardOptions, url: string): AgentCard {
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
      [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
      ["JSONRPC"],
    ),
    provider: options.provider,
    documentationUrl: options.documentationUrl,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
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
    },
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

/** True when the `A2A-Version` header asks for the v0.3 card (absent means 0.3). */
export function wantsLegacyCard(versionHeader: string | undefined): boolean {
  const trimmed = versionHeader?.trim() ?? "";
  if (trimmed === "") return true;
  const match = /^(\d+)(?:\.\d+)*$/.exec(trimmed);
  if (match === null) return false;
  return Number(match[1]) === 0;
}
