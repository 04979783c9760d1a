// How a learner's typed number is read, and whether it is within a field's tolerance.
// Mirrors zadachnik/numbers.py; both are held to tests/vectors/cases.json.

const GROUP_SPACES = "\u0020\u00a0\u2009\u202f";
const OPERATOR_SPACES = /\s*([/*·×^])\s*/g;
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
  let s = String(text).replace(/^\s+|\s+$/g, "");
  if (!s) return { error: "empty" };
  if (s.includes(".") && s.includes(",")) return { error: "separators" };
  s = s.replaceAll("\u2212", "-").replaceAll(",", ".");
  s = s.replace(SUPERSCRIPT_POWER, (_, digits) => "10^" + [...digits].map((c) => FROM_SUPERSCRIPT[c]).join(""));
  s = s.replace(OPERATOR_SPACES, "$1");
  const grouped = GROUPED.exec(s);
  if (grouped) {
    const digits = grouped[2].replace(new RegExp(`[${GROUP_SPACES}]`, "g"), "");
    s = grouped[1] + digits + s.slice(grouped[0].length);
  }
  if (/\s/.test(s)) return { error: "unreadable" };
  return readForm(s);
}

function readForm(s) {
  let match = FRACTION.exec(s);
  if (match) {
    const [, sign, numerator, denominator] = match;
    if (Number(denominator) === 0) return { error: "zero_division" };
    const value = Number(numerator) / Number(denominator);
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
