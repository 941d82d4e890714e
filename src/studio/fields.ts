/**
 * The memory config form of Studio: one field per MemoryConfig key (a unit test checks the
 * list against MEMORY_CONFIG_KEYS), with its input kind and a one-line help in both
 * languages.
 */

import {
  EMBEDDING_PROVIDERS,
  FACTS_MODES,
  MEMORY_BACKENDS,
  MEMORY_CONFIG_MAX,
  type MemoryConfigKey,
  PROMPT_CONTEXT_MODES,
} from "../memory/config.ts";
import { DEPLOY_TIME_KEYS } from "../runtime/runtime-layer.ts";
import type { StudioFieldData } from "./data.ts";

export interface StudioField extends StudioFieldData {
  key: MemoryConfigKey;
}

const FIELDS: StudioField[] = [
  {
    key: "enabled",
    kind: "boolean",
    help: { ko: "메모리 사용 여부", en: "Memory on or off" },
  },
  {
    key: "backend",
    kind: "choice",
    choices: MEMORY_BACKENDS,
    help: {
      ko: "대화 저장 위치 (MEMORY_BACKEND)",
      en: "Where conversations are stored (MEMORY_BACKEND)",
    },
  },
  {
    key: "postgres_dsn",
    kind: "text",
    optional: true,
    help: {
      ko: "Postgres 연결 문자열 (비밀번호는 가려짐)",
      en: "Postgres connection string (password masked)",
    },
  },
  {
    key: "window_size",
    kind: "int",
    min: 1,
    max: MEMORY_CONFIG_MAX.window_size,
    help: {
      ko: "모델에 보낼 최근 메시지 수 (group 단위)",
      en: "Recent messages sent to the model (whole groups)",
    },
  },
  {
    key: "history_aware",
    kind: "boolean",
    help: {
      ko: "2턴부터 system prompt 끝에 이전 대화 안내",
      en: "From turn 2, a note about the earlier conversation ends the system prompt",
    },
  },
  {
    key: "max_history_tokens",
    kind: "int",
    min: 1,
    max: MEMORY_CONFIG_MAX.max_history_tokens,
    optional: true,
    help: { ko: "window의 토큰 상한 (비우면 없음)", en: "Token cap of the window (empty: none)" },
  },
  {
    key: "persist_trim_keep_groups",
    kind: "int",
    min: 1,
    optional: true,
    help: {
      ko: "저장본을 마지막 N개 group만 남기고 영구 삭제 (비우면 끔)",
      en: "Permanently keep only the last N groups of the stored thread (empty: off)",
    },
  },
  {
    key: "summarize",
    kind: "boolean",
    help: { ko: "window 밖 히스토리 요약", en: "Summarize history that left the window" },
  },
  {
    key: "summarize_threshold",
    kind: "int",
    min: 1,
    help: { ko: "첫 요약을 만드는 전체 메시지 수", en: "Total messages before the first summary" },
  },
  {
    key: "facts_mode",
    kind: "choice",
    choices: FACTS_MODES,
    help: {
      ko: "사실 추출·recall (off | heuristic | llm)",
      en: "Fact extraction and recall (off | heuristic | llm)",
    },
  },
  {
    key: "fact_recall_max_items",
    kind: "int",
    min: 1,
    help: { ko: "한 번에 전달할 사실 수 상한", en: "At most this many facts per call" },
  },
  {
    key: "recall",
    kind: "boolean",
    help: {
      ko: "window 밖의 관련 이전 메시지를 찾아 프롬프트에 인용 (대화 recall)",
      en: "Quote relevant earlier messages that left the window (conversation recall)",
    },
  },
  {
    key: "recall_max_items",
    kind: "int",
    min: 1,
    max: MEMORY_CONFIG_MAX.recall_max_items,
    help: {
      ko: "한 번에 인용할 이전 메시지 수 상한",
      en: "At most this many earlier messages per call",
    },
  },
  {
    key: "recall_semantic",
    kind: "boolean",
    help: {
      ko: "의미로도 이전 메시지를 찾음 (postgres + pgvector, 임베딩 제공자 필요)",
      en: "Also find earlier messages by meaning (postgres + pgvector, needs an embedding provider)",
    },
  },
  {
    key: "embedding_provider",
    kind: "choice",
    choices: EMBEDDING_PROVIDERS,
    help: {
      ko: "임베딩 제공자 (workers_ai | openai_compatible)",
      en: "Embedding provider (workers_ai | openai_compatible)",
    },
  },
  {
    key: "embedding_model",
    kind: "text",
    optional: true,
    help: {
      ko: "임베딩 모델 (비우면 제공자 기본값)",
      en: "Embedding model (empty = the provider's default)",
    },
  },
  {
    key: "embedding_base_url",
    kind: "text",
    optional: true,
    help: {
      ko: "openai_compatible: /v1까지의 URL",
      en: "openai_compatible: URL up to /v1",
    },
  },
  {
    key: "prompt_context_mode",
    kind: "choice",
    choices: PROMPT_CONTEXT_MODES,
    help: {
      ko: "요약·사실·이전 대화 인용을 놓는 위치",
      en: "Where summary, facts and recalled messages are placed",
    },
  },
  {
    key: "a2a_history_max_messages",
    kind: "int",
    min: 0,
    max: MEMORY_CONFIG_MAX.a2a_history_max_messages,
    help: { ko: "metadata.history 시드 상한", en: "Cap of the metadata.history seed" },
  },
];

export const STUDIO_FIELDS: readonly StudioField[] = FIELDS.map((field) =>
  DEPLOY_TIME_KEYS.includes(field.key) ? { ...field, deployTime: true } : field,
);
