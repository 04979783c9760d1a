// How a learner's typed number is read, and whether it is within a field's tolerance.
// Mirrors zadachnik/numbers.py; both are held to tests/vectors/cases.json. Reading is linear in the text's
// length: no pattern backtracks over a run it has already scanned, and texts past MAX_LENGTH are not read.

// Longer texts are refused unread (error "too_long"), counted in code points as typed, spaces included.
export const MAX_LENGTH = 200000;
const GROUP_SPACES = "\u0020\u00a0\u2009\u202f";
const SPACE_RUN = /\s+/g;
const OPERATORS = "/*·×^";
const SUPERSCRIPT_POWER = /10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/;
const FROM_SUPERSCRIPT = { "⁻": "-", "⁺": "+", "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4",
  "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9" };
const GROUPED = new RegExp(`^([+-]?)([0-9]{1,3}(?:[${GROUP_SPACES}][0-9]{3})+)(?=$|[.eE/*·×x])`);
const MANTISSA = "(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)";
const DECIMAL = new RegExp(`^([+-]?)(${MANTISSA})(?:[eE]([+-]?[0-9]+))?$`);
const TIMES_TEN = new RegExp(`^([+-]?)(?:(${MANTISSA})[*·×x])?10\\^([+-]?[0-9]+)$`);
const FRACTION = new RegExp(`^([+-]?)(${MANTISSA})/(${MANTISSA})$`);
const EXPONENT_LIMIT = 1e9;

// {value, decimals, significant} or {value, fraction: true}, or {error: kind}.
export function readNumber(text) {
  const typed = String(text);
  if (longerThan(typed, MAX_LENGTH)) return { error: "too_long" };
  // trim() strips exactly \s; a pattern like /\s+$/ would retry from every space of a long inner run (quadratic).
  let s = typed.trim();
  if (!s) return { error: "empty" };
  if (s.includes(".") && s.includes(",")) return { error: "separators" };
  s = s.replaceAll("\u2212", "-").replaceAll(",", ".");
  s = s.replace(SUPERSCRIPT_POWER, (_, digits) => "10^" + [...digits].map((c) => FROM_SUPERSCRIPT[c]).join(""));
  s = s.replace(SPACE_RUN, dropByOperator);
  const grouped = GROUPED.exec(s);
  if (grouped) {
    const digits = grouped[2].replace(new RegExp(`[${GROUP_SPACES}]`, "g"), "");
    s = grouped[1] + digits + s.slice(grouped[0].length);
  }
  if (/\s/.test(s)) return { error: "unreadable" };
  return readForm(s);
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

export function gradeField(field, text) {
  const reading = readNumber(text);
  if ("error" in reading) return { status: "unreadable", error: reading.error };
  const atol = field.atol || 0;
  const rtol = field.rtol || 0;
  if (within(reading.value, field.answer, atol, rtol)) return { status: "correct", value: reading.value };
  return { status: "wrong", value: reading.value, precision: tooCoarse(reading, field.answer, atol, rtol) };
}
