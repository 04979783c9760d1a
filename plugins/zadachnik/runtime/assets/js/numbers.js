// How a learner's typed number is read, and whether it is within a field's tolerance.
// Mirrors zadachnik/core/numbers.py (reading) and zadachnik/core/formatting.py (writing); both are held to
// tests/vectors/cases.json. A page reads and writes with its locale's conventions, which it carries (the runtime
// strings' "number"): {lang, decimal, group, minimum_grouping}. Reading is linear in the text's length: no
// pattern backtracks over a run it has already scanned, and texts past MAX_LENGTH are not read.

// Longer texts are refused unread (error "too_long"), counted in code points as typed, spaces included.
export const MAX_LENGTH = 200000;
const GROUP_SPACES = "\u0020\u00a0\u2009\u202f";
const SPACE_RUN = /\s+/g;
const OPERATORS = "/*·×^";
const SUPERSCRIPT_POWER = /10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/;
const FROM_SUPERSCRIPT = { "⁻": "-", "⁺": "+", "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4",
  "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9" };
// Group signs a locale may use besides '.', ',' and spaces (Swiss German's 1’234): read like spaces.
const OTHER_GROUP_SIGNS = "’'";
const AFTER_GROUPS = "(?=$|[.eE/*·×x])";
const SPACE_GROUPED = Object.fromEntries(["", ...OTHER_GROUP_SIGNS].map((sign) => [sign,
  new RegExp(`^([+-]?)([0-9]{1,3}(?:[${GROUP_SPACES}${sign}][0-9]{3})+)${AFTER_GROUPS}`)]));
const GROUP_CHARS = new RegExp(`[${GROUP_SPACES}${OTHER_GROUP_SIGNS}]`, "g");
// Thousands written with '.' or ',', before the other sign as the decimal one ("2,629.07", "2.629,07")…
const GROUPED_BEFORE = {
  ".": /^([+-]?)([1-9][0-9]{0,2}(?:\.[0-9]{3})+)(?=[.,])/,
  ",": /^([+-]?)([1-9][0-9]{0,2}(?:,[0-9]{3})+)(?=[.,])/,
};
// …or repeated, without one ("13,983,816"). A first group never starts with 0: "0,123,456" is no number.
const GROUPED_ONLY = {
  ".": /^([+-]?)([1-9][0-9]{0,2}(?:\.[0-9]{3}){2,})(?=$|[eE/*·×x])/,
  ",": /^([+-]?)([1-9][0-9]{0,2}(?:,[0-9]{3}){2,})(?=$|[eE/*·×x])/,
};
// One group sign of the page's own before three digits: a thousands group, or a decimal sign elsewhere.
const AMBIGUOUS = { ".": /^([+-]?)([1-9][0-9]{0,2})\.([0-9]{3})$/, ",": /^([+-]?)([1-9][0-9]{0,2}),([0-9]{3})$/ };
const MANTISSA = "(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)";
const DECIMAL = new RegExp(`^([+-]?)(${MANTISSA})(?:[eE]([+-]?[0-9]+))?$`);
const TIMES_TEN = new RegExp(`^([+-]?)(?:(${MANTISSA})[*·×x])?10\\^([+-]?[0-9]+)$`);
const FRACTION = new RegExp(`^([+-]?)(${MANTISSA})/(${MANTISSA})$`);
const EXPONENT_LIMIT = 1e9;

// {value, decimals, significant} or {value, fraction: true}, or {error: kind}; for a text the page's locale makes
// ambiguous, {error: "ambiguous", grouped, decimal}: both readings' values.
export function readNumber(text, conventions = null) {
  const typed = String(text);
  if (longerThan(typed, MAX_LENGTH)) return { error: "too_long" };
  // trim() strips exactly \s; a pattern like /\s+$/ would retry from every space of a long inner run (quadratic).
  // Direction marks go first (README rule 2b): right-to-left text, and numbers copied from it, carry them.
  let s = typed.replace(DIRECTION_MARKS, "").trim();
  if (!s) return { error: "empty" };
  const groupSign = (conventions && conventions.group) || "";
  s = keyboard(s, (conventions && conventions.decimal) || ".");
  s = s.replaceAll("\u2212", "-");
  s = s.replace(SUPERSCRIPT_POWER, (_, digits) => "10^" + [...digits].map((c) => FROM_SUPERSCRIPT[c]).join(""));
  s = s.replace(SPACE_RUN, dropByOperator);
  const separated = separators(s, groupSign);
  if (typeof separated !== "string") return separated;
  s = separated;
  const grouped = SPACE_GROUPED[OTHER_GROUP_SIGNS.includes(groupSign) ? groupSign : ""].exec(s);
  if (grouped) s = grouped[1] + grouped[2].replace(GROUP_CHARS, "") + s.slice(grouped[0].length);
  if (/\s/.test(s)) return { error: "unreadable" };
  return readForm(s);
}

const DIRECTION_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// A learner's text without direction marks and with what their keyboard typed in ASCII (README rules 2b, 2a): as
// the formula reader reads it too.
export const typedAscii = (text, decimalSign) => keyboard(text.replace(DIRECTION_MARKS, ""), decimalSign);

// What the learner's own keyboard typed, in ASCII (README rule 2a): full-width forms, other scripts' digits (a run
// of ten from its zero: the digit is the distance from it), the Arabic separators as the page's decimal sign and
// as a group.
function keyboard(s, decimalSign) {
  return s.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/(?![0-9])\p{Nd}/gu, (digit) => {
      let zero = digit.codePointAt(0);
      while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
      return (digit.codePointAt(0) - zero) % 10;
    })
    .replaceAll("\u066b", decimalSign).replaceAll("\u066c", "\u2009");
}

// `s` with thousands groups written with '.' or ',' taken out and its decimal sign made '.', or the error (as
// numbers.py: both signs, the last is the decimal one; one repeated groups; one once is decimal unless ambiguous).
function separators(s, groupSign) {
  const lastPoint = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  if (lastPoint >= 0 && lastComma >= 0) {
    const [decimal, group] = lastPoint > lastComma ? [".", ","] : [",", "."];
    const grouped = GROUPED_BEFORE[group].exec(s);
    const rest = grouped ? s.slice(grouped[0].length) : "";
    if (!grouped || rest.includes(group) || count(rest, decimal) !== 1) return { error: "separators" };
    return grouped[1] + grouped[2].replaceAll(group, "") + rest.replace(decimal, ".");
  }
  const sign = lastPoint >= 0 ? "." : lastComma >= 0 ? "," : "";
  if (!sign) return s;
  if (count(s, sign) > 1) {
    const grouped = GROUPED_ONLY[sign].exec(s);
    if (grouped && !s.slice(grouped[0].length).includes(sign)) {
      return grouped[1] + grouped[2].replaceAll(sign, "") + s.slice(grouped[0].length);
    }
    return s.replaceAll(",", ".");
  }
  if (sign === groupSign) {
    const ambiguous = AMBIGUOUS[sign].exec(s);
    if (ambiguous) {
      const [, negative, whole, thousands] = ambiguous;
      return { error: "ambiguous", grouped: Number(`${negative}${whole}${thousands}`),
        decimal: Number(`${negative}${whole}.${thousands}`) };
    }
  }
  return s.replaceAll(",", ".");
}

function count(text, char) {
  let found = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) found++;
  return found;
}

// In code points, as Python's len(): an astral character is two UTF-16 units but one character.
function longerThan(text, limit) {
  if (text.length <= limit) return false;
  if (text.length > 2 * limit) return true;
  let count = 0;
  for (const _ of text) if (++count > limit) return true;
  return false;
}

// Spaces next to / * · × ^ go; any others stay, for the thousands groups or the unreadable check. Each run is
// matched once, whole, so this stays linear.
function dropByOperator(run, start, s) {
  const end = start + run.length;
  const before = start > 0 && OPERATORS.includes(s[start - 1]);
  const after = end < s.length && OPERATORS.includes(s[end]);
  return before || after ? "" : run;
}

function readForm(s) {
  let match = FRACTION.exec(s);
  if (match) {
    const [, sign, numeratorText, denominatorText] = match;
    const numerator = Number(numeratorText);
    const denominator = Number(denominatorText);
    if (denominator === 0 && !/[1-9]/.test(denominatorText)) return { error: "zero_division" };
    // A part no double holds: 16/7777…7 is not 16/∞ = 0, and 1/0.000…01 did not divide by zero.
    const beyondDoubles = denominator === 0 || !Number.isFinite(numerator) || !Number.isFinite(denominator);
    if (beyondDoubles) return { error: "too_large" };
    const value = numerator / denominator;
    return finite({ value: sign === "-" ? -value : value, fraction: true });
  }
  match = DECIMAL.exec(s);
  if (match) return decimal(match[1], match[2], match[3] || "0");
  match = TIMES_TEN.exec(s);
  if (match) return decimal(match[1], match[2] || "1", match[3]);
  return { error: "unreadable" };
}

function decimal(sign, mantissa, exponentText) {
  const value = Number(`${sign}${mantissa}e${exponentText}`);
  const digitsOnly = exponentText.replace(/^[+-]/, "").replace(/^0+/, "") || "0";
  const magnitude = Math.min(digitsOnly.length < 10 ? Number(digitsOnly) : EXPONENT_LIMIT, EXPONENT_LIMIT);
  const exponent = exponentText.startsWith("-") ? -magnitude : magnitude;
  const fraction = mantissa.includes(".") ? mantissa.split(".")[1] : "";
  const digits = mantissa.replace(".", "").replace(/^0+/, "");
  return finite({ value, decimals: fraction.length - exponent, significant: digits.length });
}

function finite(reading) {
  return Number.isFinite(reading.value) ? reading : { error: "too_large" };
}

// Inclusive; the slack keeps decimal bounds inclusive despite binary rounding.
export function within(value, answer, atol, rtol) {
  const difference = Math.abs(value - answer);
  const slack = 1e-9 * Math.max(Math.abs(answer), Math.abs(value), atol);
  return difference <= atol + slack || difference <= rtol * Math.abs(answer) + slack;
}

export function neededDecimals(atol) {
  return Math.max(0, -Math.floor(Math.log10(2 * atol)));
}

export function neededSignificant(rtol) {
  return Math.max(1, -Math.floor(Math.log10(2 * rtol))) + 1;
}

// PrairieLearn's precision warning: typed with fewer digits than the tolerance needs, and the answer rounded
// to the learner's last digit. Otherwise more digits would not help: the number is just wrong.
export function tooCoarse(reading, answer, atol, rtol) {
  if (reading.fraction) return false;
  let coarse;
  if (atol > 0) coarse = reading.decimals < neededDecimals(atol);
  else if (rtol > 0) coarse = reading.significant < neededSignificant(rtol);
  else return false;
  return coarse && within(reading.value, answer, halfUnit(reading.decimals), 0);
}

// Half a unit of the last typed digit (2 decimals → 0.005), parsed from text as Python does: same double.
function halfUnit(decimals) {
  return Number(`5e${-decimals - 1}`);
}

export function gradeField(field, text, conventions = null) {
  const reading = readNumber(text, conventions);
  // An ambiguous text keeps both readings, for the message that names them.
  if ("error" in reading) return { status: "unreadable", ...reading };
  const atol = field.atol || 0;
  const rtol = field.rtol || 0;
  if (within(reading.value, field.answer, atol, rtol)) return { status: "correct", value: reading.value };
  return { status: "wrong", value: reading.value, precision: tooCoarse(reading, field.answer, atol, rtol) };
}

// -- writing, as zadachnik/core/formatting.py writes ------------------------------------------------------------
const MINUS = "\u2212";
// Beyond these magnitudes a number is written as a power of ten: 2,12368·10¹².
const LARGE = 1e9;
const SMALL = 1e-6;
// Digits past what a double holds are noise (and toFixed stops at 100).
const MOST_DECIMALS = 20;
const MOST_PLACES = 16;
const TO_SUPERSCRIPT = Object.fromEntries([..."-0123456789"].map((char, at) => [char, "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"[at]]));
// A page that carries no conventions: a point, and no-break spaces, which every page's reader reads.
const PLAIN = { decimal: ".", group: "\u00a0", minimum_grouping: 1 };

// `value` as the page's locale writes it; trailing zeros dropped, "−" for minus. `decimals` rounds to that many
// places (null: to `significant` digits); `group` groups the integer part as the locale does (but never a
// single group behind '.' or ',', which the reader would call ambiguous).
// On a right-to-left page a left-to-right mark before the minus and the power of ten's "·": "−2.5" would show
// as "2.5−" there (formatting.py says why only there).
export function writeNumber(value, conventions, decimals = null, group = true, significant = 10) {
  const text = written(value, conventions || PLAIN, decimals, group, significant);
  if (!conventions?.rtl) return text;
  const marked = text.replace("·10", "\u200e·10");
  return marked.startsWith(MINUS) ? `\u200e${marked}` : marked;
}

function written(value, convention, decimals, group, significant) {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : value > 0 ? "∞" : `${MINUS}∞`;
  if (value && !(SMALL <= Math.abs(value) && Math.abs(value) < LARGE)) {
    const [mantissa, exponent] = powerOfTen(value, decimals, significant);
    const superscript = [...String(exponent)].map((char) => TO_SUPERSCRIPT[char]).join("");
    return `${localized(mantissa, convention, false)}·10${superscript}`;
  }
  return localized(positional(value, decimals, significant), convention, group);
}

// Whether writeNumber(value, …, decimals, …, significant) writes `value` itself, not a rounding of it (compared
// as doubles, so 0.1 is exact and 16/7 is not).
export function shownExactly(value, decimals = null, significant = 10) {
  if (!Number.isFinite(value)) return false;
  if (value && !(SMALL <= Math.abs(value) && Math.abs(value) < LARGE)) {
    const [mantissa, exponent] = powerOfTen(value, decimals, significant);
    return Number(`${mantissa}e${exponent}`) === value;
  }
  return Number(positional(value, decimals, significant)) === value;
}

function positional(value, decimals, significant) {
  if (decimals === null || decimals === undefined) {
    // toPrecision turns to an exponent from 10^significant on (1.2345679e+8 for 8 digits): written out here.
    const [mantissa, exponent] = value.toPrecision(significant).split("e");
    if (!exponent) return mantissa;
    const [sign, digits] = [mantissa.startsWith("-") ? "-" : "", mantissa.replace(/^-/, "").replace(".", "")];
    return sign + digits.padEnd(Number(exponent) + 1, "0");
  }
  return value.toFixed(Math.min(Math.max(0, decimals), MOST_DECIMALS));
}

function powerOfTen(value, decimals, significant) {
  let places = significant - 1;
  if (decimals !== null && decimals !== undefined) {
    const exponent = Number(value.toExponential(16).split("e")[1]);
    places = Math.min(Math.max(0, decimals + exponent), MOST_PLACES);
  }
  const [mantissa, exponent] = value.toExponential(places).split("e");
  return [mantissa, Number(exponent)];
}

function localized(text, convention, group) {
  let negative = text.startsWith("-");
  const [digits, decimals = ""] = text.replace(/^-/, "").split(".");
  const fraction = decimals.replace(/0+$/, "");
  if (!fraction && !/[1-9]/.test(digits)) negative = false; // −0 is 0
  const whole = group ? grouped(digits, convention, Boolean(fraction)) : digits;
  return (negative ? MINUS : "") + whole + (fraction ? convention.decimal + fraction : "");
}

function grouped(whole, convention, hasFraction) {
  if (whole.length < 3 + convention.minimum_grouping) return whole;
  // "2,100" could be read as 2.1: an integer of one group is written ungrouped behind '.' or ','.
  if (".,".includes(convention.group) && whole.length <= 6 && !hasFraction) return whole;
  const head = whole.length % 3 || 3;
  const groups = [whole.slice(0, head)];
  for (let start = head; start < whole.length; start += 3) groups.push(whole.slice(start, start + 3));
  return groups.join(convention.group);
}
