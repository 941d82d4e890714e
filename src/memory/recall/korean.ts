/**
 * Korean words → index stems for conversation recall. Korean glues particles
 * (조사) and endings (어미) to the word, so "이름은", "이름이에요" and "이름이" must all give
 * "이름". A stem is the word with
 * 1. the copula removed (facts/korean.ts `stripCopula`: 예요/이에요/입니다/이야/임 …),
 * 2. up to two particles removed (`splitParticle`: the particle's form must agree with the
 *    last syllable, and nouns that merely end like one, 고양이/제주도, are kept),
 * 3. one verb ending removed (below: 하다-verbs give their noun, "공부했어요" → "공부";
 *    other verbs keep their first syllables, "살아요" → "살").
 * Over-stripping is harmless as long as it is the same on both sides (documents and
 * questions go through this one function); the syllable bigrams of terms.ts catch what
 * stemming misses, and spacing variants ("매운음식" / "매운 음식").
 */
import { STOP_KO, splitParticle, stripCopula } from "../facts/korean.ts";

/** Endings after a 하다-verb's noun (longest first): "공부하고" → "공부". */
const HA_ENDINGS = [
  "했었어요",
  "하겠습니다",
  "했습니다",
  "하셨어요",
  "하려고요",
  "했는데요",
  "하고있어",
  "했었어",
  "했어요",
  "하세요",
  "합니다",
  "했는데",
  "하는데",
  "하려고",
  "하거든",
  "하니까",
  "해서요",
  "했지만",
  "했다가",
  "해야지",
  "하잖아",
  "했어",
  "했다",
  "했고",
  "했던",
  "했지",
  "해요",
  "하고",
  "하는",
  "해서",
  "하면",
  "하다",
  "하기",
  "하러",
  "하자",
  "하지",
  "해야",
  "하던",
  "해도",
  "할게",
  "할래",
  "한다",
  "함",
  "해",
  "한",
  "할",
  "하",
] as const;

/** Verb and adjective endings (longest first): "살아요" → "살", "먹었어" → "먹". */
const VERB_ENDINGS = [
  "었었어요",
  "았었어요",
  "었습니다",
  "았습니다",
  "겠습니다",
  "었는데요",
  "았는데요",
  "습니다",
  "었어요",
  "았어요",
  "였어요",
  "겠어요",
  "는데요",
  "었는데",
  "았는데",
  "거든요",
  "잖아요",
  "더라고",
  "었었나",
  "었나",
  "았나",
  "였나",
  "었지",
  "았지",
  "였지",
  "었니",
  "나요",
  "까요",
  "었어",
  "았어",
  "였어",
  "었다",
  "았다",
  "었고",
  "았고",
  "어요",
  "아요",
  "여요",
  "는데",
  "지만",
  "니까",
  "거든",
  "잖아",
  "더라",
  "네요",
  "고요",
  "구요",
  "어서",
  "아서",
  "으면",
  "어도",
  "아도",
  "는",
  "고",
  "어",
  "아",
  "다",
  "요",
  "죠",
  "지",
  "면",
  "게",
  "니",
  "냐",
  "나",
] as const;

/** Stems too common to tell messages apart (있다, 하다, 되다 …): no term of their own. */
const STEM_STOP: ReadonlySet<string> = new Set(
  "있 없 하 했 해 되 됐 돼 된 될 이 그 저 것 거 건 걸 게 수 때 좀 더 안 못 잘".split(" "),
);

/** Strips the first ending of `endings` that leaves at least `min` syllables. */
function stripEnding(word: string, endings: readonly string[], min: number): string {
  for (const ending of endings) {
    if (word.length - ending.length >= min && word.endsWith(ending)) {
      return word.slice(0, -ending.length);
    }
  }
  return word;
}

/** The index stem of one Hangul word (see the file header); "" for a stop word. */
export function koreanStem(word: string): string {
  if (STOP_KO.has(word)) return "";
  // Copula first ("이름이에요" → "이름", not "이름이에"), then up to two particles.
  let stem = stripCopula(word);
  stem = splitParticle(stem)[0];
  stem = splitParticle(stem)[0];
  const ha = stripEnding(stem, HA_ENDINGS, 1);
  if (ha !== stem) stem = ha;
  else stem = stripEnding(stem, VERB_ENDINGS, 1);
  return STOP_KO.has(stem) || STEM_STOP.has(stem) ? "" : stem;
}

/**
 * A Hangul piece glued to a Latin or digit word ("Google에서", "15살이에요" → "에서",
 * "이에요"): true when it is only a particle or copula, so it adds no term.
 */
export function isBareEnding(piece: string): boolean {
  // Probe with a syllable with and one without a final consonant (이에요 / 예요 forms).
  return ["각", "가"].some((probe) => {
    const stem = koreanStem(`${probe}${piece}`);
    return stem === probe || stem === "";
  });
}
