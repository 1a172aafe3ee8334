/**
 * Countries of the synthetic dataset with name patterns in their own languages and scripts.
 * Every place name is invented from syllables; no real institution is named.
 */
export interface CountryStyle {
  code: string;
  /** `{}` is replaced by the invented place name. */
  patterns: readonly string[];
  /** Syllables for place names, in the local script. */
  syllables: readonly string[];
}

export const LATIN = [
  "nor",
  "ha",
  "ven",
  "bel",
  "mar",
  "ros",
  "tal",
  "lin",
  "cas",
  "dor",
  "mi",
  "ra",
  "sel",
  "vik",
  "an",
  "to",
];
const ACCENTED = ["mé", "ré", "lô", "sé", "ça", "vè", "bo", "ri", "nan", "té", "gué", "mont"];
const GERMANIC = ["bär", "lin", "hof", "wäl", "der", "stein", "feld", "mün", "burg", "öst", "tal", "sch"];
const NORDIC = ["ås", "øy", "fjor", "dal", "vik", "lund", "hav", "sø", "strand", "berg"];
const SLAVIC_LAT = ["Wro", "sła", "ków", "Łu", "bin", "Gda", "rze", "mie", "cin", "Ko"];
const CZ = ["Bře", "zno", "Čes", "kov", "Plz", "ník", "Ústí", "rov"];
const CYRILLIC = ["Ново", "град", "Бел", "озер", "ск", "Крас", "но", "дар", "Сев", "ер"];
const GREEK = ["Θεσ", "σα", "λο", "νί", "κη", "Αρ", "γο", "Πά", "τρα", "Λα"];
const HAN = ["东", "海", "山", "南", "江", "北", "川", "明", "华", "光"];
const KANA = ["北", "浜", "山", "川", "桜", "松", "宮", "田", "高", "森"];
const HANGUL = ["한", "서", "울", "강", "동", "남", "산", "해", "성", "원"];
const ARABIC = ["الن", "ور", "زه", "را", "ال", "قم", "ر", "سل", "ام"];
const HEBREW = ["נו", "ה", "גל", "ים", "רמ", "ת", "הר"];
const DEVANAGARI = ["नव", "पुर", "गढ़", "राम", "नगर", "सू", "रज"];
const THAI = ["นค", "รศ", "รี", "สุ", "วร", "รณ"];
const TURKISH = ["Çam", "lı", "Göz", "te", "pe", "Işık", "kent", "Ağ"];
const VIET = ["Hưng", "Yên", "Đà", "Lạt", "Thủ", "Đức"];

export const COUNTRIES: readonly CountryStyle[] = [
  {
    code: "US",
    patterns: ["University of {}", "{} State University", "{} Institute of Technology"],
    syllables: LATIN,
  },
  { code: "GB", patterns: ["University of {}", "{} College"], syllables: LATIN },
  { code: "CA", patterns: ["Université de {}", "University of {}"], syllables: ACCENTED },
  { code: "AU", patterns: ["University of {}", "{} University"], syllables: LATIN },
  { code: "NZ", patterns: ["University of {}"], syllables: LATIN },
  { code: "IE", patterns: ["{} University", "Ollscoil {}"], syllables: LATIN },
  { code: "DE", patterns: ["Universität {}", "Technische Hochschule {}"], syllables: GERMANIC },
  { code: "AT", patterns: ["Universität {}", "Fachhochschule {}"], syllables: GERMANIC },
  { code: "CH", patterns: ["Université de {}", "Universität {}"], syllables: GERMANIC },
  { code: "FR", patterns: ["Université de {}", "École supérieure de {}"], syllables: ACCENTED },
  { code: "BE", patterns: ["Université de {}", "Hogeschool {}"], syllables: ACCENTED },
  { code: "NL", patterns: ["Universiteit {}", "Hogeschool {}"], syllables: LATIN },
  { code: "ES", patterns: ["Universidad de {}", "Universitat de {}"], syllables: ACCENTED },
  { code: "PT", patterns: ["Universidade de {}", "Instituto Politécnico de {}"], syllables: ACCENTED },
  { code: "IT", patterns: ["Università di {}", "Politecnico di {}"], syllables: LATIN },
  { code: "BR", patterns: ["Universidade Federal de {}", "Universidade de {}"], syllables: ACCENTED },
  { code: "MX", patterns: ["Universidad Autónoma de {}", "Universidad de {}"], syllables: ACCENTED },
  { code: "AR", patterns: ["Universidad Nacional de {}"], syllables: ACCENTED },
  { code: "CL", patterns: ["Universidad de {}", "Pontificia Universidad de {}"], syllables: ACCENTED },
  { code: "CO", patterns: ["Universidad de {}"], syllables: ACCENTED },
  { code: "PE", patterns: ["Universidad Nacional de {}"], syllables: ACCENTED },
  { code: "SE", patterns: ["{} universitet", "Högskolan i {}"], syllables: NORDIC },
  { code: "NO", patterns: ["Universitetet i {}", "Høgskolen i {}"], syllables: NORDIC },
  { code: "DK", patterns: ["{} Universitet"], syllables: NORDIC },
  { code: "FI", patterns: ["{}n yliopisto"], syllables: NORDIC },
  { code: "IS", patterns: ["Háskólinn á {}"], syllables: NORDIC },
  { code: "PL", patterns: ["Uniwersytet {}", "Politechnika {}"], syllables: SLAVIC_LAT },
  { code: "CZ", patterns: ["Univerzita {}", "Vysoké učení technické v {}"], syllables: CZ },
  { code: "RU", patterns: ["{} государственный университет", "Университет {}"], syllables: CYRILLIC },
  { code: "UA", patterns: ["{} національний університет"], syllables: CYRILLIC },
  { code: "BG", patterns: ["Университет {}"], syllables: CYRILLIC },
  { code: "GR", patterns: ["Πανεπιστήμιο {}", "Πολυτεχνείο {}"], syllables: GREEK },
  { code: "TR", patterns: ["{} Üniversitesi", "{} Teknik Üniversitesi"], syllables: TURKISH },
  { code: "CN", patterns: ["{}大学", "{}理工大学"], syllables: HAN },
  { code: "TW", patterns: ["國立{}大學"], syllables: HAN },
  { code: "JP", patterns: ["{}大学", "{}工業大学"], syllables: KANA },
  { code: "KR", patterns: ["{}대학교", "{}과학기술원"], syllables: HANGUL },
  { code: "IN", patterns: ["University of {}", "{} विश्वविद्यालय"], syllables: DEVANAGARI },
  { code: "TH", patterns: ["มหาวิทยาลัย{}"], syllables: THAI },
  { code: "VN", patterns: ["Đại học {}"], syllables: VIET },
  { code: "EG", patterns: ["جامعة {}"], syllables: ARABIC },
  { code: "SA", patterns: ["جامعة {}"], syllables: ARABIC },
  { code: "IL", patterns: ["אוניברסיטת {}"], syllables: HEBREW },
  { code: "ZA", patterns: ["University of {}", "Universiteit van {}"], syllables: LATIN },
  { code: "NG", patterns: ["University of {}", "{} Polytechnic"], syllables: LATIN },
  { code: "KE", patterns: ["{} University"], syllables: LATIN },
];
