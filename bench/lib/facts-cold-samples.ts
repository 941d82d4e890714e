/** Messages for bench/facts-cold.ts: typical first messages that state facts, Korean and English. */
export const COLD_SAMPLES: readonly string[] = [
  "안녕하세요! 저는 김민수라고 해요. 서울 마포구에 살고 있어요.",
  "저 땅콩 알레르기가 있어요. 그리고 오이를 정말 싫어해요",
  "나 개발자임. 판교에서 일하고 고양이 두 마리 키워",
  "Hi, I'm Sarah. I live in Portland and I work as a nurse.",
  "I'm allergic to shellfish and I have a golden retriever named Max.",
  "I'm flying to Tokyo next Friday for a conference, and I speak a little Japanese.",
  // The worst case: every category in one message, both languages.
  "Hi, I'm Sam. I live in Busan, I work at Acme as a nurse and I love Thai food. I'm allergic to peanuts, I have a dog, I drive a Tesla and I'm flying to Tokyo next Friday. 저는 민수라고 해요. 서울에 살고 카카오에서 일해요. 땅콩 알레르기가 있고 오이를 싫어해요. 다음 주에 제주도 가요. 서른 살이에요.",
];
