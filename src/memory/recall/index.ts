/**
 * Conversation recall, the lexical core: index terms for Korean and English
 * messages and questions (terms.ts, with the contract the storage backends index by) and
 * a BM25 ranker (bm25.ts), the port a backend implements (source.ts), the turn side of it
 * (select.ts) and the in-memory source (memory-source.ts). No I/O.
 */
export {
  type Bm25Options,
  type Candidate,
  type CorpusStats,
  idf,
  RecallIndex,
  rankCandidates,
  type Scored,
} from "./bm25.ts";
export {
  fuseNeighbours,
  NEIGHBOURS,
  type Recalled,
  type RecallMessage,
  type RecallOptions,
  recallFromIndex,
  recallMessages,
} from "./conversation.ts";
export {
  indexTermsOf,
  ListRecallSource,
  type StoredMessage,
  textOfMessage,
} from "./memory-source.ts";
export {
  CANDIDATES_PER_ITEM,
  MIN_CANDIDATES,
  RRF_K,
  recallForTurn,
  selectRecalled,
  type TurnRecall,
} from "./select.ts";
export type {
  RecallAnswer,
  RecallCandidate,
  RecallRequest,
  RecallRole,
  RecallSource,
  RecallStats,
} from "./source.ts";
export {
  MAX_TERM_CHARS,
  MAX_TERMS_INPUT_CHARS,
  queryTerms,
  searchTerms,
  TERMS_VERSION,
} from "./terms.ts";
export { withTail } from "./turn-source.ts";
