/**
 * Word lists of the heuristic fact extractor and of recall (Korean and English). Plain
 * data; matching lives in extract-*.ts and recall.ts.
 */

import { type Pattern, pattern } from "./regex.ts";
import { PET_MEMBER_RELATIONS } from "./slots.ts";

/** Family members and pets: the words as written → a canonical relation (the id key). */
export const RELATIONS_KO: Readonly<Record<string, string>> = {
  아내: "wife",
  와이프: "wife",
  집사람: "wife",
  부인: "wife",
  남편: "husband",
  신랑: "husband",
  배우자: "spouse",
  아들: "son",
  아들내미: "son",
  딸: "daughter",
  딸내미: "daughter",
  아이: "children",
  아이들: "children",
  애: "children",
  애들: "children",
  자녀: "children",
  자식: "children",
  아기: "baby",
  애기: "baby",
  쌍둥이: "twins",
  엄마: "mother",
  어머니: "mother",
  어머님: "mother",
  아빠: "father",
  아버지: "father",
  아버님: "father",
  부모님: "parents",
  형: "older-brother",
  오빠: "older-brother",
  누나: "older-sister",
  언니: "older-sister",
  남동생: "younger-brother",
  여동생: "younger-sister",
  동생: "sibling",
  할머니: "grandmother",
  할아버지: "grandfather",
  손주: "grandchild",
  손자: "grandchild",
  손녀: "grandchild",
  남자친구: "boyfriend",
  남친: "boyfriend",
  여자친구: "girlfriend",
  여친: "girlfriend",
  애인: "partner",
  약혼자: "fiance",
  약혼녀: "fiance",
  시어머니: "mother-in-law",
  장모님: "mother-in-law",
  시아버지: "father-in-law",
  장인어른: "father-in-law",
  강아지: "dog",
  개: "dog",
  반려견: "dog",
  노견: "dog",
  노령견: "dog",
  유기견: "dog",
  댕댕이: "dog",
  말티즈: "dog",
  푸들: "dog",
  시바견: "dog",
  진돗개: "dog",
  웰시코기: "dog",
  포메라니안: "dog",
  리트리버: "dog",
  고양이: "cat",
  냥이: "cat",
  반려묘: "cat",
  노묘: "cat",
  노령묘: "cat",
  유기묘: "cat",
  햄스터: "hamster",
  앵무새: "bird",
  토끼: "rabbit",
  거북이: "turtle",
  금붕어: "fish",
  기니피그: "guinea-pig",
  페럿: "ferret",
  고슴도치: "hedgehog",
  도마뱀: "lizard",
  열대어: "fish",
  물고기: "fish",
};

export const RELATIONS_EN: Readonly<Record<string, string>> = {
  wife: "wife",
  husband: "husband",
  spouse: "spouse",
  partner: "partner",
  son: "son",
  daughter: "daughter",
  kid: "children",
  kids: "children",
  child: "children",
  children: "children",
  baby: "baby",
  twins: "twins",
  mom: "mother",
  mum: "mother",
  mother: "mother",
  dad: "father",
  father: "father",
  parents: "parents",
  brother: "brother",
  sister: "sister",
  sibling: "sibling",
  grandma: "grandmother",
  grandmother: "grandmother",
  grandpa: "grandfather",
  grandfather: "grandfather",
  grandson: "grandchild",
  granddaughter: "grandchild",
  boy: "son",
  boys: "son",
  girl: "daughter",
  girls: "daughter",
  teen: "children",
  teens: "children",
  teenager: "children",
  teenagers: "children",
  toddler: "children",
  boyfriend: "boyfriend",
  girlfriend: "girlfriend",
  fiance: "fiance",
  fiancé: "fiance",
  fiancee: "fiance",
  fiancée: "fiance",
  "mother-in-law": "mother-in-law",
  "father-in-law": "father-in-law",
  dog: "dog",
  puppy: "dog",
  cat: "cat",
  kitten: "cat",
  retriever: "dog",
  labrador: "dog",
  poodle: "dog",
  corgi: "dog",
  beagle: "dog",
  husky: "dog",
  terrier: "dog",
  bulldog: "dog",
  dachshund: "dog",
  chihuahua: "dog",
  pug: "dog",
  hamster: "hamster",
  parrot: "bird",
  rabbit: "rabbit",
  bunny: "rabbit",
  turtle: "turtle",
  tabby: "cat",
  kitty: "cat",
  parakeet: "bird",
  budgie: "bird",
  cockatiel: "bird",
  fish: "fish",
  goldfish: "fish",
  "guinea pig": "guinea-pig",
  ferret: "ferret",
  hedgehog: "hedgehog",
  gecko: "lizard",
  tortoise: "turtle",
};

/**
 * Dog breeds named by their last part: greyhound, bloodhound, labradoodle, goldendoodle.
 * Word formation rather than a list of every breed (values.ts relationOf).
 */
export const BREED_SUFFIXES: readonly (readonly [string, string])[] = [
  ["hound", "dog"],
  ["doodle", "dog"],
];

/** Relations that count as "a child" when a question says 아이/kid/child. */
export const CHILD_RELATIONS: ReadonlySet<string> = new Set([
  "son",
  "daughter",
  "children",
  "baby",
  "twins",
]);
export const SIBLING_RELATIONS: ReadonlySet<string> = new Set([
  "brother",
  "sister",
  "sibling",
  "older-brother",
  "older-sister",
  "younger-brother",
  "younger-sister",
]);
/** The pets' relations: the slot table's pet group (slots.ts). */
export const PET_RELATIONS: ReadonlySet<string> = new Set(PET_MEMBER_RELATIONS);

/** People other than the user and their family (a clause about them is not about the user). */
export const OTHER_PEOPLE_KO: ReadonlySet<string> = new Set([
  "친구",
  "친구들",
  "동료",
  "직장 동료",
  "선배",
  "후배",
  "상사",
  "이웃",
  "룸메이트",
  "걔",
  "그",
  "그녀",
  "그분",
  "사람",
  "사람들",
  "다들",
  "남들",
  "누군가",
  "팀장",
  "사장",
  "부장",
  "과장",
  "선생",
  "교수",
  "손님",
  "고객",
]);

export const JOBS_KO: ReadonlySet<string> = new Set([
  "리서처",
  "UX 리서처",
  "정직원",
  "계약직",
  "정규직",
  "에디터",
  "학생",
  "대학생",
  "고등학생",
  "중학생",
  "초등학생",
  "대학원생",
  "취준생",
  "취업준비생",
  "직장인",
  "회사원",
  "공무원",
  "교사",
  "선생님",
  "교수",
  "교수님",
  "강사",
  "의사",
  "간호사",
  "약사",
  "한의사",
  "치과의사",
  "수의사",
  "변호사",
  "회계사",
  "세무사",
  "노무사",
  "개발자",
  "프로그래머",
  "엔지니어",
  "디자이너",
  "기획자",
  "마케터",
  "연구원",
  "연구자",
  "기자",
  "작가",
  "번역가",
  "통역사",
  "요리사",
  "셰프",
  "바리스타",
  "제빵사",
  "미용사",
  "경찰",
  "경찰관",
  "소방관",
  "군인",
  "자영업자",
  "사장",
  "대표",
  "사업가",
  "프리랜서",
  "주부",
  "전업주부",
  "백수",
  "농부",
  "어부",
  "택시기사",
  "배우",
  "가수",
  "음악가",
  "화가",
  "사진작가",
  "유튜버",
  "크리에이터",
  "트레이너",
  "코치",
  "상담사",
  "사회복지사",
  "물리치료사",
  "영양사",
  "보육교사",
  "은행원",
  "판매원",
  "점원",
  "알바생",
  "알바",
  "아르바이트",
  "인턴",
  "분석가",
  "과학자",
  "건축가",
  "컨설턴트",
  "매니저",
  "승무원",
  "조종사",
  "파일럿",
  "비서",
  "사서",
  "목사",
  "외교관",
  "검사",
  "판사",
  "군무원",
  "사무원",
  "상담원",
  "직원",
  "교직원",
  "신입사원",
  "사원",
  "대리",
  "과장",
  "차장",
  "부장",
  "팀장",
  "PM",
  "PD",
  "아나운서",
  "운동선수",
  "선수",
  "간병인",
  "요양보호사",
  "배달기사",
  "택배기사",
  "공인중개사",
  "치위생사",
  "임상병리사",
  "방사선사",
  "애널리스트",
  "일러스트레이터",
  "웹툰작가",
  "작곡가",
  "피아니스트",
  "바이올리니스트",
  "은퇴자",
  "원장",
  "원장님",
  "교장",
  "교감",
  "원감",
  "점장",
  "실장",
  "사무장",
]);

/** Job-looking tokens that are not jobs. */
export const NOT_JOBS_KO: ReadonlySet<string> = new Set([
  // Pet-owner slang (a cat's "butler"), not an occupation: rules-ko.ts reads the pet.
  "집사",
  "냥집사",
  "멍집사",
  "회사",
  "여자",
  "남자",
  "부자",
  "환자",
  "초보자",
  "사용자",
  "구독자",
  "시청자",
  "참가자",
  "소비자",
  "독자",
  "보호자",
  "동생",
  "남동생",
  "여동생",
  "인생",
  "평생",
  "탄생",
  "위생",
  "발생",
  "출생",
  "휴가",
  "평가",
  "여가",
  "이사",
  "기사",
  "행사",
  "봉사",
  "조사",
  "인사",
  "감사",
  "역사",
  "대사",
  "신사",
  "가사",
  "여사",
  "채식주의자",
  "완벽주의자",
]);

export const JOB_HEADS_EN: ReadonlySet<string> = new Set([
  "engineer",
  "developer",
  "programmer",
  "tester",
  "agent",
  "coder",
  "designer",
  "teacher",
  "professor",
  "lecturer",
  "tutor",
  "student",
  "nurse",
  "doctor",
  "physician",
  "surgeon",
  "dentist",
  "pharmacist",
  "vet",
  "veterinarian",
  "therapist",
  "psychologist",
  "counselor",
  "counsellor",
  "lawyer",
  "attorney",
  "paralegal",
  "judge",
  "accountant",
  "auditor",
  "banker",
  "manager",
  "consultant",
  "analyst",
  "scientist",
  "researcher",
  "writer",
  "author",
  "journalist",
  "reporter",
  "editor",
  "artist",
  "illustrator",
  "animator",
  "musician",
  "singer",
  "actor",
  "actress",
  "photographer",
  "chef",
  "cook",
  "baker",
  "barista",
  "bartender",
  "waiter",
  "waitress",
  "server",
  "cashier",
  "clerk",
  "architect",
  "firefighter",
  "officer",
  "cop",
  "soldier",
  "pilot",
  "driver",
  "farmer",
  "mechanic",
  "electrician",
  "plumber",
  "carpenter",
  "translator",
  "interpreter",
  "entrepreneur",
  "founder",
  "freelancer",
  "marketer",
  "salesperson",
  "recruiter",
  "intern",
  "homemaker",
  "housewife",
  "retiree",
  "secretary",
  "librarian",
  "economist",
  "coach",
  "trainer",
  "technician",
  "administrator",
  "ceo",
  "cto",
  "cfo",
  "pm",
  "paramedic",
  "caregiver",
  "janitor",
  "contractor",
  "consultant",
  "investor",
  "trader",
  "streamer",
  "youtuber",
  "influencer",
  "priest",
  "pastor",
  "nanny",
  "babysitter",
  "dietitian",
  "nutritionist",
  "optometrist",
  "hairdresser",
  "stylist",
  "tailor",
  "postdoc",
  "resident",
  "undergrad",
  "undergraduate",
  "freshman",
  "sophomore",
  "scientist",
  "statistician",
  "mathematician",
  "physicist",
  "chemist",
  "biologist",
  "dev",
]);

export const NATIONALITIES: Readonly<Record<string, string>> = {
  korean: "Korean",
  american: "American",
  canadian: "Canadian",
  british: "British",
  english: "English",
  japanese: "Japanese",
  chinese: "Chinese",
  french: "French",
  german: "German",
  spanish: "Spanish",
  italian: "Italian",
  mexican: "Mexican",
  brazilian: "Brazilian",
  indian: "Indian",
  australian: "Australian",
  vietnamese: "Vietnamese",
  filipino: "Filipino",
  thai: "Thai",
  russian: "Russian",
  dutch: "Dutch",
  irish: "Irish",
  swedish: "Swedish",
  한국인: "한국인",
  한국사람: "한국인",
  미국인: "미국인",
  일본인: "일본인",
  중국인: "중국인",
  캐나다인: "캐나다인",
  영국인: "영국인",
};

/** Words after "I'm" that are not names (states, adjectives, nationalities). */
export const NOT_NAMES_EN: ReadonlySet<string> = new Set(
  `a an the so very really just not also still here there back home done fine good great ok okay
  sorry sure glad happy sad tired bored hungry thirsty sick ill busy free ready new old young
  late early going trying looking thinking wondering working living moving leaving feeling
  getting doing learning studying coming having planning about allergic vegan vegetarian
  married single engaged divorced pregnant retired unemployed interested curious confused lost
  afraid scared worried excited nervous stressed fine alright home in at on from into with
  currently originally actually probably definitely totally kind kinda pretty quite
  diabetic asthmatic lactose gluten sober taking using reading watching playing
  selling buying flying driving heading traveling travelling visiting staying sleeping
  awake alone right wrong sure aware able unable supposed gonna trying`
    .split(/\s+/)
    .filter((word) => word !== ""),
);

/** Korean cities/regions/countries (for particle-less place phrases like "나 서울 살아"). */
export const PLACES_KO: ReadonlySet<string> = new Set(
  `서울 부산 대구 인천 광주 대전 울산 세종 수원 성남 분당 판교 일산 고양 용인 화성 안양 안산 부천
  평택 의정부 파주 김포 하남 구리 남양주 시흥 광명 군포 오산 이천 청주 천안 아산 전주 군산 익산
  포항 경주 구미 안동 창원 김해 진주 양산 거제 통영 제주 제주도 서귀포 강릉 춘천 원주 속초 여수
  순천 목포 강남 강북 홍대 신촌 잠실 송도 동탄 광교 위례 마곡 여의도 목동 해운대 서면 센텀
  경기 경기도 강원도 충청도 전라도 경상도 충북 충남 전북 전남 경북 경남
  미국 일본 중국 캐나다 영국 프랑스 독일 호주 베트남 태국 싱가포르 홍콩 대만 필리핀
  뉴욕 도쿄 오사카 교토 후쿠오카 파리 런던 베를린 시드니 밴쿠버 토론토 엘에이 시애틀 하와이
  방콕 다낭 하노이 호치민 발리 상하이 베이징 타이베이 괌 사이판`
    .split(/\s+/)
    .filter((word) => word !== ""),
);

/** Suffixes of Korean place names (시, 구, 동, 역 …). */
export const PLACE_SUFFIX_KO = pattern(
  "[가-힣](?:시|도|구|군|동|읍|면|리|역|로|길)$",
  "",
  "구|군|길|도|동|로|리|면|시|역|읍",
);

/** Things a person owns → kind (the id key of a possession, so a new car replaces the old). */
export const POSSESSION_KINDS: readonly (readonly [Pattern, string])[] = [
  [
    pattern(
      String.raw`\b(?:car|suv|sedan|truck|tesla|hyundai|kia|bmw|mercedes|benz|audi|toyota|honda|ford|volvo|volkswagen|vw|porsche|subaru|mazda|nissan|lexus|genesis|prius|camry|civic|corolla|sonata|avante|elantra|ioniq|jeep|minivan)\b`,
      "i",
      "audi|avante|benz|bmw|camry|car|civic|corolla|elantra|ford|genesis|honda|hyundai|ioniq|jeep|kia|lexus|mazda|mercedes|minivan|nissan|porsche|prius|sedan|sonata|subaru|suv|tesla|toyota|truck|volkswagen|volvo|vw",
    ),
    "car",
  ],
  [
    pattern(
      "(?:차|자동차|아반떼|소나타|쏘나타|그랜저|제네시스|쏘렌토|스포티지|카니발|모닝|레이|싼타페|투싼|팰리세이드|코나|아이오닉|테슬라|벤츠|아우디|볼보|토요타|도요타|프리우스|캠리|혼다|포르쉐|티볼리|니로|셀토스|캐스퍼|K[3579]|[가-힣]{2}카$)",
      "",
      "카|K3|K5|K7|K9|그랜저|니로|도요타|레이|모닝|벤츠|볼보|셀토스|소나타|스포티지|싼타페|쏘나타|쏘렌토|아반떼|아우디|아이오닉|제네시스|차|카니발|캐스퍼|캠리|코나|테슬라|토요타|투싼|티볼리|팰리세이드|포르쉐|프리우스|혼다",
    ),
    "car",
  ],
  [
    pattern(
      String.raw`\b(?:e-?bike|bike|bicycle|scooter)\b|자전거|킥보드`,
      "i",
      "bicycle|bike|scooter|자전거|킥보드",
    ),
    "bike",
  ],
  [
    pattern(
      String.raw`\b(?:motorcycle|motorbike)\b|오토바이`,
      "i",
      "motorbike|motorcycle|오토바이",
    ),
    "motorcycle",
  ],
  [
    pattern(
      String.raw`\b(?:iphone|galaxy|pixel|phone|smartphone)\b|아이폰|갤럭시|핸드폰|휴대폰|스마트폰|폰`,
      "i",
      "galaxy|phone|pixel|갤럭시|폰",
    ),
    "phone",
  ],
  [
    pattern(
      String.raw`\b(?:macbook|laptop|thinkpad|notebook|chromebook)\b|맥북|노트북|그램`,
      "i",
      "chromebook|laptop|macbook|notebook|thinkpad|그램|노트북|맥북",
    ),
    "laptop",
  ],
  [
    pattern(
      String.raw`\b(?:ipad|tablet)\b|아이패드|태블릿|갤럭시탭`,
      "i",
      "ipad|tablet|갤럭시탭|아이패드|태블릿",
    ),
    "tablet",
  ],
  [
    pattern(
      String.raw`\b(?:ps5|ps4|playstation|xbox|nintendo|switch|steam deck)\b|플스|닌텐도|스위치|엑스박스`,
      "i",
      "nintendo|playstation|ps4|ps5|steam deck|switch|xbox|닌텐도|스위치|엑스박스|플스",
    ),
    "console",
  ],
  [
    pattern(String.raw`\b(?:camera|dslr|gopro)\b|카메라`, "i", "camera|dslr|gopro|카메라"),
    "camera",
  ],
  [
    pattern(
      String.raw`\b(?:house|apartment|condo|flat|home)\b|아파트|주택|오피스텔|빌라`,
      "i",
      "apartment|condo|flat|home|house|빌라|아파트|오피스텔|주택",
    ),
    "home",
  ],
  [pattern(String.raw`\b(?:watch|apple watch)\b|시계|워치`, "i", "watch|시계|워치"), "watch"],
  [
    pattern(
      String.raw`\b(?:piano|guitar|violin|drum)s?\b|피아노|기타|바이올린`,
      "i",
      "drum|guitar|piano|violin|기타|바이올린|피아노",
    ),
    "instrument",
  ],
  [
    pattern(
      String.raw`\b(?:computer|pc|desktop|imac)\b|컴퓨터|데스크탑`,
      "i",
      "computer|desktop|imac|pc|데스크탑|컴퓨터",
    ),
    "computer",
  ],
];

export function possessionKind(value: string): string | undefined {
  for (const [pattern, kind] of POSSESSION_KINDS) if (pattern.test(value)) return kind;
  return undefined;
}

/** Medical conditions (Korean, English) for the health category. */
export const CONDITIONS_KO =
  "당뇨병|당뇨|고혈압|저혈압|고지혈증|천식|비염|아토피|위염|장염|역류성 식도염|식도염|허리 디스크|디스크|관절염|통풍|빈혈|편두통|두통|불면증|우울증|공황장애|공황|ADHD|갑상선|심장병|부정맥|유당불내증|과민성 대장|과민성대장증후군|지방간|탈모|이명|녹내장|백내장|대상포진|암|고관절|척추측만증|거북목|안구건조증|생리통|수면무호흡";

/** Job titles said short, and what they stand for (an ambiguous short form is not here). */
export const JOB_ABBREVIATIONS_EN: Readonly<Record<string, string>> = {
  pm: "product manager",
  swe: "software engineer",
  sde: "software engineer",
  rn: "registered nurse",
  lpn: "licensed practical nurse",
  cpa: "accountant",
  ux: "UX designer",
};

export const CONDITIONS_EN =
  "type [12] diabetes|diabetes|prediabetes|high blood pressure|low blood pressure|hypertension|high cholesterol|asthma|allergies|celiac disease|celiac|ibs|crohn's disease|crohn's|migraines?|arthritis|a bad back|back pain|a bad knee|insomnia|depression|anxiety|adhd|epilepsy|a heart condition|heart disease|gout|eczema|psoriasis|lactose intolerance|gluten intolerance|sleep apnea|acid reflux|gerd|cancer|hypothyroidism|thyroid issues|tinnitus|glaucoma|a herniated disc|scoliosis|anemia|pcos|long covid|chronic pain|fibromyalgia|lupus|multiple sclerosis|ms|autism|dyslexia|heart palpitations|palpitations";

/**
 * The ways of eating that are one slot, `health:diet` (rules.ts `diet` map): a new one
 * replaces the old, "back to eating meat" ends any of them (retraction-cues.ts), and one
 * named after an ended one is the new diet (replacement.ts).
 */
export const WAYS_OF_EATING_EN = "vegan|vegetarian|pescatarian|flexitarian";
export const WAYS_OF_EATING_KO = "비건|채식주의자|채식|페스코|락토|플렉시테리언";

/**
 * Leaving for a moment, not for good ("I left work early today", "we left Boston at 6am"):
 * the retraction cues (retraction-cues.ts) and the "left work" retraction row (rules-en.ts)
 * keep the job or the home when a message says it.
 */
export const MOMENT_EN = String.raw`\b(?:early|for (?:lunch|the day|a bit|an hour|a while)|at \d|\d\s*(?:am|pm)|tonight|this (?:morning|afternoon|evening))\b`;

export const DIET_EN =
  "vegetarian|vegan|pescatarian|diabetic|pregnant|lactose[- ]intolerant|gluten[- ]intolerant|gluten[- ]free|celiac|asthmatic|sober|on a diet|on a low[- ]carb diet|on keto|on medication|in recovery|colou?rblind|deaf|hard of hearing|keto|halal|kosher|teetotal";

export const DIET_KO =
  "채식주의자|채식주의|비건|페스코|락토|임산부|임신 중|임신중|다이어트 중|다이어트중|금주 중|금주중|금연 중|금연중|당뇨 환자|할랄";

/** Event nouns of plans. */
export const EVENTS_KO =
  "건강검진|생일파티|결혼식|상견례|돌잔치|집들이|졸업식|입학식|소개팅|신혼여행|면접|시험|결혼|회의|미팅|발표|수술|출장|여행|이사|약속|데이트|공연|콘서트|파티|예약|마라톤|대회|검사|진료|휴가|캠핑|워크숍|세미나|컨퍼런스|시합|경기|오디션|수업|레슨|등산|모임|동창회|송별회|회식|야유회|전시회|페스티벌|축제|비행기";

/** Businesses a person opens, runs or owns (their owner's job; their name a workplace). */
export const BUSINESSES_EN =
  "bakery|cafe|café|coffee shop|restaurant|bookstore|bookshop|flower shop|salon|food truck|boutique|gym|bar|pub|bistro|deli|pizzeria|brewery|winery|farm|florist";

export const EVENTS_EN =
  "appointment|interview|exam|test|meeting|flight|wedding|surgery|operation|trip|vacation|holiday|concert|party|presentation|deadline|date|game|match|race|marathon|checkup|check-up|conference|hearing|recital|reservation|audition|graduation|ceremony|move|visit|class|lesson|camping trip|hike|tournament|show|performance|dinner|lunch|birthday party|baby shower|reunion";

/** Time expressions that make a statement about the future a plan. */
export const TIME_KO = pattern(
  String.raw`(?:오늘\s*(?:저녁|밤|오후|아침)|내일|모레|글피|이번\s*(?:주|달|주말|여름|겨울|방학|휴가|연휴)|다음\s*(?:주|달|해|주말|학기|번)|다음주|다음달|담주|담달|다다음\s*주|이번주|이번달|주말|내년|올해\s*(?:여름|겨울|가을|봄|말)|연말|연휴|추석|설날|크리스마스|방학|\d+\s*월(?:\s*\d+\s*일)?|\d+\s*일\s*(?:뒤|후|에)|(?:월|화|수|목|금|토|일)요일|곧|조만간|며칠\s*(?:뒤|후)|\d+\s*(?:주|달|개월)\s*(?:뒤|후))`,
  "",
  "곧|글피|내년|다음|달|며칠|모레|방학|설날|연말|연휴|오늘|올해|월|이번|일|조만간|주|추석|크리스마스",
);

export const TIME_EN = pattern(
  String.raw`\b(?:tomorrow|tonight|today|next\s+(?:week|month|year|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|fall|autumn|winter|semester)|this\s+(?:week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|fall|autumn|winter|evening|afternoon|morning)|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|in\s+(?:january|february|march|april|may|june|july|august|september|october|november|december)|in\s+(?:a|two|three|four|five|\d+)\s+(?:days?|weeks?|months?)|(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}(?:st|nd|rd|th)?|later\s+this\s+(?:week|month|year)|soon|the\s+day\s+after\s+tomorrow|over\s+the\s+holidays|for\s+christmas|at\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?|(?:on\s+)?the\s+\d{1,2}(?:st|nd|rd|th)\b(?!\s+(?:time|floor|place|century|grade|birthday|anniversary)))\b`,
  "i",
  "afternoon|april|at|august|autumn|christmas|day|december|evening|fall|february|january|july|june|march|may|month|morning|november|october|semester|nd|rd|september|soon|spring|st|summer|th|tomorrow|tonight|week|winter|year",
);

/** Korean organisation names and suffixes (for "X 다녀요" = works at X). */
export const ORG_KO = pattern(
  "(?:회사|전자|은행|병원|학교|대학교|대학|대학원|그룹|증권|증권사|카드|생명|보험|공사|공단|청|랩|연구소|연구원|스튜디오|센터|조선소|공장|물산|건설|제약|통신|상사|항공|백화점|마트|편의점|카페|식당|호텔|재단|협회|법인|사무소|스타트업|에이전시|기업|네이버|카카오|삼성|현대|엘지|LG|SK|KT|롯데|쿠팡|배민|토스|당근|라인|CJ|한화|포스코|신한|국민|우리|하나)$",
  "",
  "CJ|KT|LG|SK|건설|공단|공사|공장|국민|그룹|기업|네이버|당근|대학|라인|랩|롯데|마트|물산|배민|백화점|법인|병원|보험|사무소|삼성|상사|생명|센터|스타트업|스튜디오|식당|신한|에이전시|엘지|연구소|연구원|우리|은행|재단|전자|제약|조선소|증권|청|카드|카카오|카페|쿠팡|토스|통신|편의점|포스코|하나|학교|한화|항공|현대|협회|호텔|회사",
);

/** Place names in Korean and in romanisation, so "대전 맛집" finds "I live in Daejeon". */
export const PLACE_ALIASES: readonly (readonly string[])[] = [
  ["seoul", "서울"],
  ["busan", "pusan", "부산"],
  ["daegu", "대구"],
  ["incheon", "인천"],
  ["gwangju", "광주"],
  ["daejeon", "대전"],
  ["ulsan", "울산"],
  ["sejong", "세종"],
  ["suwon", "수원"],
  ["seongnam", "성남"],
  ["bundang", "분당"],
  ["pangyo", "판교"],
  ["ilsan", "일산"],
  ["yongin", "용인"],
  ["jeju", "제주", "제주도"],
  ["gangneung", "강릉"],
  ["chuncheon", "춘천"],
  ["jeonju", "전주"],
  ["pohang", "포항"],
  ["gyeongju", "경주"],
  ["changwon", "창원"],
  ["yeosu", "여수"],
  ["sokcho", "속초"],
  ["gangnam", "강남"],
  ["hongdae", "홍대"],
  ["itaewon", "이태원"],
  ["yeouido", "여의도"],
  ["tokyo", "도쿄"],
  ["osaka", "오사카"],
  ["kyoto", "교토"],
  ["fukuoka", "후쿠오카"],
  ["newyork", "뉴욕"],
  ["paris", "파리"],
  ["london", "런던"],
  ["la", "losangeles", "엘에이", "로스앤젤레스"],
  ["seattle", "시애틀"],
  ["vancouver", "밴쿠버"],
  ["toronto", "토론토"],
  ["sydney", "시드니"],
  ["bangkok", "방콕"],
  ["danang", "다낭"],
  ["hanoi", "하노이"],
  ["bali", "발리"],
  ["singapore", "싱가포르"],
  ["hongkong", "홍콩"],
  ["taipei", "타이베이"],
  ["shanghai", "상하이"],
  ["beijing", "베이징"],
  ["berlin", "베를린"],
  ["korea", "한국"],
  ["japan", "일본"],
  ["usa", "america", "미국"],
  ["canada", "캐나다"],
  ["china", "중국"],
];
