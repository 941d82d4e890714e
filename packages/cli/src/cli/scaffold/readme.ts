/** The README of a scaffolded project: Korean first, then English (like the product docs). */
import { localDsn, type ProjectSpec } from "./files.ts";

const PRODUCT_BODY = (text: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    method: "message/send",
    params: {
      message: { contextId: "user-alice-session", role: "user", parts: [{ kind: "text", text }] },
    },
  });

/** The project's `engines.node`, as package.json has it (">=22.18"). */
function nodeRange(spec: ProjectSpec): string {
  return spec.manifest.engines?.node ?? ">=22.18";
}

function curl(text: string): string {
  return `curl -s http://127.0.0.1:\${PORT:-8787}/ -H 'content-type: application/json' \\\n  -d '${PRODUCT_BODY(text)}'`;
}

const MODE_KO: Record<string, string> = {
  off: "메모리 없음: 요청마다 새 대화입니다.",
  in_memory:
    "대화마다 Durable Object 메모리에 보관합니다. 재시작·배포·유휴 시 사라지므로 실험용입니다.",
  postgres:
    "Postgres(운영은 Neon, HTTP 드라이버)에 저장합니다. 재시작 후에도 유지되는 운영 기본값입니다.",
  sqlite:
    "대화의 Durable Object SQLite 저장소에 보관합니다(레거시 호환). 새 프로젝트는 postgres를 쓰세요.",
};

const MODE_EN: Record<string, string> = {
  off: "no memory: every request is a new conversation.",
  in_memory:
    "kept in the memory of one Durable Object per conversation; lost on restart, deploy or idle eviction (experiments).",
  postgres:
    "stored in Postgres (Neon in production, over its HTTP driver); survives restarts (the production default).",
  sqlite:
    "kept in the conversation Durable Object's SQLite storage (legacy); new projects should use postgres.",
};

/** How a flow project's conversation goes (defineFlow). */
const FLOW_KO = [
  "",
  "워크플로(`defineFlow`, `src/agent.ts` + `src/flow.ts`)는 단계마다 하나씩 묻고 답을 zod로 검사합니다.",
  "어느 단계인지와 받은 답은 대화의 LangGraph 상태(체크포인트)에 저장되며, 메시지 창(`window_size`)에서",
  "다시 읽지 않으므로 대화가 길어져도 잊지 않습니다. 단계 사이의 A2A 작업은 `input-required`이고,",
  "다음 답을 그 작업의 `taskId`(같은 `contextId`)로 보내면 같은 작업이 이어집니다. 확인 단계에서 `completed`.",
  "`다시`/`restart`는 처음부터 시작합니다. 단계 추가·분기(`next`)·모델 호출(`chat()`)은 llamon의",
  "`docs/flows.md`를 보세요.",
];
const FLOW_EN = `- Flow (\`defineFlow\` in \`src/agent.ts\`, steps in \`src/flow.ts\`): one question per step, each answer
  checked by its zod schema. The step and the answers live in the conversation's LangGraph state (its
  checkpoint), never re-read from the message window, so a long conversation does not lose them. Between
  steps the A2A task is \`input-required\`; send the next answer with that task's \`taskId\` (same
  \`contextId\`) to continue it; the confirmation completes it. \`restart\` starts over. Adding steps,
  branching (\`next\`) and model calls (\`chat()\`): llamon's \`docs/flows.en.md\`.
`;

export function readme(spec: ProjectSpec): string {
  const pg = spec.backend === "postgres";
  const files = [
    "| `src/agent.ts` | 에이전트 정의: 지시문, 메모리 설정(`memory.backend`) / the agent and its MemoryConfig |",
    "| `src/index.ts` | Worker 진입점 (`createWorker`, `ThreadDO`) / the Worker entry |",
    ...(spec.template.id === "agent-tools"
      ? ["| `src/tools.ts` | 도구 (calculate, current_time) / the tools |"]
      : []),
    ...(spec.template.kind === "flow"
      ? [
          "| `src/flow.ts` | 단계: 질문, 답 검사(zod), 확인 문구 / the steps: questions, answer checks (zod), the confirmation |",
        ]
      : []),
    "| `test/` | `npm test`: Worker를 workerd 안에서 띄워 오프라인 모델로 대화 (네트워크 불필요) / boots the Worker in workerd and talks to it through the offline model (no network) |",
    "| `wrangler.toml` | Worker 설정, `AGENT_ID`, `MEMORY_BACKEND`, Durable Object |",
    "| `.dev.vars` | 로컬 설정·비밀값 (커밋하지 않음) / local settings and secrets |",
    "| `.dev.vars.example` | 모든 변수 설명 / every variable, one line each |",
    ...(pg ? ["| `compose.yml` | 컨테이너로 Postgres 실행 / Postgres in a container |"] : []),
    "| `vendor/` | 이 프로젝트가 쓰는 llamon과 llamon-cli 패키지 / the llamon and llamon-cli packages this project uses |",
  ];
  const tryIt =
    spec.template.id === "agent-tools"
      ? [
          "",
          "LLM 없이 도구를 시험하려면 (오프라인 모델) / To try a tool without an LLM (offline model):",
          "",
          "```sh",
          curl('/tool calculate {"expression":"(12.5 + 7) * 3"}'),
          "```",
        ]
      : spec.template.kind === "flow"
        ? FLOW_KO
        : [];
  const flowEn = spec.template.kind === "flow" ? FLOW_EN : "";
  return `# ${spec.name}

${spec.template.title} — ${spec.template.description}. llamon으로 만든 Cloudflare Workers
A2A 에이전트입니다 (템플릿 \`${spec.template.id}\`, 메모리 \`${spec.memory}\`).

## 시작하기

Node.js ${nodeRange(spec)}가 필요합니다(\`package.json\`의 \`engines\`; 더 오래된 Node에서는 llamon이
\`error [NODE_UNSUPPORTED]\`로 알려 줌).

\`\`\`sh
npm install          # 처음 한 번 (scaffold가 이미 했으면 생략)
npx llamon run .     # http://127.0.0.1:8787 (다른 포트: PORT=8788 npx llamon run . 또는 --port 8788)
\`\`\`

${
  pg
    ? `\`llamon run\`은 \`.dev.vars\`의 \`POSTGRES_MEMORY_DSN\`(\`${localDsn(spec)}\`)에 접속할 수 있으면
그 DB를 쓰고(없으면 만듭니다), 접속할 수 없으면 프로젝트 폴더 \`.llamon/\`에 데이터를 두는 내장 Postgres를
띄웁니다. 컨테이너를 쓰면 \`docker compose up -d\`로 \`compose.yml\`의 Postgres를 먼저 띄우세요.
`
    : ""
}
같은 대화를 이어가려면 매 요청에 같은 \`message.contextId\`를 보냅니다:

\`\`\`sh
${curl("이전에 뭐 얘기했지?")}
\`\`\`
${tryIt.length > 0 ? `${tryIt.join("\n")}\n` : ""}
대화형으로 시험하려면 \`npx llamon chat\` (\`npm run chat\`; \`PORT\`를 따르며, 다른 주소는
\`npx llamon chat <url>\`; \`--context-id\`로 이어가기).
모델은 \`.dev.vars\`의 \`LLM_PROVIDER\`, \`LLM_MODEL\`, \`LLM_API_KEY\`로 고릅니다. 설정하지 않으면
받은 내용을 설명해 주는 오프라인 모델이 답합니다.

## 인증 (누가 부를 수 있나)

대화는 부르는 쪽(principal)의 것입니다. 다른 키로 같은 \`contextId\`를 보내면 자기만의 새 대화가 됩니다.
\`wrangler.toml\`은 \`A2A_AUTH = "api_key"\`이고, 로컬 \`.dev.vars\`는 \`A2A_AUTH=none\`(자격 증명 없이 호출)입니다.
키를 만들고 그 SHA-256만 비밀값에 넣습니다:

\`\`\`sh
KEY=$(openssl rand -hex 32); echo "key: $KEY"
echo "alice=$(printf %s "$KEY" | openssl dgst -sha256 | sed 's/^.*= //')"   # A2A_API_KEYS에 넣을 값
npx wrangler secret put A2A_API_KEYS          # 여러 개는 쉼표로: alice=…,bob=…
curl -s https://<your-worker>/ -H "authorization: Bearer $KEY" -H 'content-type: application/json' -d '…'
LLAMON_A2A_TOKEN=$KEY npx llamon chat https://<your-worker>
\`\`\`

키 하나를 빼면 그 키만 막힙니다. JWT(OIDC, Cloudflare Access)는 \`A2A_AUTH=jwt\`와 \`A2A_JWT_*\`
(\`.dev.vars.example\` 참고). 관리 토큰(\`LLAMON_ADMIN_TOKEN\`)과 A2A 키는 서로 다른 것입니다.

## 메모리 모드: \`${spec.memory}\`

${MODE_KO[spec.backend]} 코드(\`src/agent.ts\`의 \`memory.backend\`)에는 \`${spec.backend}\`로
적혀 있고, \`wrangler.toml\`/\`.dev.vars\`의 \`MEMORY_BACKEND\`가 있으면 그 값이 우선합니다. 모드를 바꿀 때는
설정만 바꾸면 됩니다. 떠 있던 in-memory 대화는 Postgres로 옮겨지지 않습니다.

## 파일

| 파일 / file | 내용 / what |
|---|---|
${files.join("\n")}

## 명령

| 명령 | 하는 일 |
|---|---|
| \`npx llamon run .\` | 로컬 실행 (wrangler dev${pg ? ", DB 준비" : ""}) |
| \`npx llamon chat [url]\` | 대화형 A2A 클라이언트 (기본 http://127.0.0.1:$PORT, 8787) |
| \`npm test\` / \`npm run typecheck\` | 테스트 / 타입 검사 |
${
  pg
    ? `| \`npx llamon migrate --dsn …\` | 운영 DB에 테이블 생성 (배포 전 한 번) |
| \`npx llamon memory prune --older-than-days 30\` | 오래된 대화 목록 (\`--apply\`로 삭제) |
`
    : ""
}| \`npx llamon prepare-offline . --clean\` | 폐쇄망 설치용 \`offline/\` 묶음 생성 |
| \`npx wrangler deploy\` | Cloudflare에 배포 |

## 배포

\`\`\`sh
npx llamon doctor                 # 준비됐는지 점검 (고칠 것이 있으면 방법과 함께 종료 코드 1)
npx wrangler login
${pg ? 'npx llamon migrate --dsn "$NEON_DIRECT_DSN"     # Neon의 direct 호스트, ?sslmode=require\nnpx wrangler secret put POSTGRES_MEMORY_DSN     # Neon의 pooled(-pooler) 연결 문자열\n' : ""}npx wrangler secret put A2A_API_KEYS            # principal=<키의 sha256>,… (위 "인증")
npx wrangler deploy
\`\`\`

단계별 안내(요약 큐, 커스텀 도메인, 스모크 테스트, 로그, 롤백): \`node_modules/llamon/docs/deploy.md\`.

## 폐쇄망 설치

인터넷이 되는 곳에서 \`npx llamon prepare-offline . --clean\`을 실행하고 프로젝트 폴더를 통째로 옮긴 뒤:

\`\`\`sh
npm ci --cache offline/npm-cache --offline
\`\`\`

---

## English

An llamon A2A agent on Cloudflare Workers (template \`${spec.template.id}\`, memory \`${spec.memory}\`).

- Needs Node.js ${nodeRange(spec)} (\`engines\` in \`package.json\`; an older Node gets llamon's
  \`error [NODE_UNSUPPORTED]\`).
- Start: \`npm install\` (once, unless the scaffold did it), then \`npx llamon run .\` → http://127.0.0.1:8787
  (another port: \`PORT=8788 npx llamon run .\` or \`--port 8788\`).
${
  pg
    ? `  It uses \`POSTGRES_MEMORY_DSN\` from \`.dev.vars\` when reachable (creating the database), else an
  embedded Postgres with data in \`.llamon/\`. \`docker compose up -d\` runs the one in \`compose.yml\`.
`
    : ""
}- Continue a conversation by sending the same \`message.contextId\` (see the curl above), or use
  \`npx llamon chat [url] [--context-id ID]\` (\`npm run chat\`; without a URL it talks to
  http://127.0.0.1:$PORT, 8787 when PORT is unset).
- Auth: conversations belong to the caller (principal); another key sending the same
  \`contextId\` gets a fresh conversation of its own. \`wrangler.toml\` says \`A2A_AUTH = "api_key"\`;
  \`.dev.vars\` says \`none\` for local runs. Make a key with \`openssl rand -hex 32\`, put only its
  SHA-256 in the secret (\`npx wrangler secret put A2A_API_KEYS\`, value \`alice=<sha256 hex>,…\`),
  and call with \`Authorization: Bearer <key>\` or \`LLAMON_A2A_TOKEN=<key> npx llamon chat <url>\`.
  Removing one entry revokes that key alone. JWT (OIDC, Cloudflare Access): \`A2A_AUTH=jwt\` and
  \`A2A_JWT_*\` (see \`.dev.vars.example\`). The admin token (\`LLAMON_ADMIN_TOKEN\`) is separate.
${flowEn}- Model: \`LLM_PROVIDER\`, \`LLM_MODEL\`, \`LLM_API_KEY\` in \`.dev.vars\`; none set → the offline model,
  which describes what it received.
- Memory \`${spec.memory}\`: ${MODE_EN[spec.backend]} Code says \`backend: "${spec.backend}"\`;
  \`MEMORY_BACKEND\` in \`wrangler.toml\` / \`.dev.vars\` overrides it, so switching modes is a
  config change. Live in-memory conversations are not moved to Postgres.
- \`npm test\`, \`npm run typecheck\`. Deploy: \`npx llamon doctor\` (what is missing, with fixes),
  \`npx wrangler login\`, \`npx wrangler secret put A2A_API_KEYS\`${pg ? ", `npx llamon migrate --dsn <Neon direct DSN>`, `npx wrangler secret put POSTGRES_MEMORY_DSN` (Neon's pooled DSN)" : ""},
  \`npx wrangler deploy\`; step by step in \`node_modules/llamon/docs/deploy.en.md\`.
${pg ? "- Old conversations: `npx llamon memory prune --older-than-days 30` lists them, `--apply` deletes them.\n" : ""}- Air-gapped install: \`npx llamon prepare-offline . --clean\` where there is internet, copy the folder,
  then \`npm ci --cache offline/npm-cache --offline\`.
`;
}
