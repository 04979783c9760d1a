// Formula answers: an expression a learner types ("16*N", "2n(d+1)", "N/10^9"), read into a tree and evaluated.
// Mirrors zadachnik/core/formula.py rule for rule; both are held to tests/vectors/formula.json. Read there what
// is accepted: numbers, + - * / and powers, parentheses, FUNCTIONS, pi and e, and the question's own names.
// A tree is an array: ["num", text], ["var", name], ["const", name], ["neg", tree], [op, left, right] for
// + - * / ^, ["call", name, tree]. A token is [kind, text]: num, name, func or op.

import { typedAscii } from "./numbers.js";

const M = Math;
export const FUNCTIONS = { sqrt: M.sqrt, exp: M.exp, ln: M.log, log: M.log, log2: M.log2, log10: M.log10,
  sin: M.sin, cos: M.cos, tan: M.tan, abs: M.abs };
export const CONSTANTS = { pi: M.PI, "π": M.PI, e: M.E };
export const MAX_LENGTH = 500;
const MAX_DEPTH = 50;
const SIGNS = { "+": "+", "-": "-", "\u2212": "-", "*": "*", "·": "*", "×": "*", "/": "/", "÷": "/", "^": "^",
  "(": "(", ")": ")" };
const SPACES = " \t\n\r\f\v\u00a0\u2002\u2003\u2009\u202f";
const SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹";
const PRECEDENCE = { "+": 1, "-": 1, "*": 2, "/": 2, neg: 3, "^": 4 };
const LETTER = /\p{L}/u;
const has = (table, key) => Object.hasOwn(table, key);
const isDigit = (char) => char >= "0" && char <= "9";
const isSuper = (char) => char !== undefined && SUPERSCRIPTS.includes(char);

export class FormulaError extends Error {
  constructor(kind, detail = "") {
    super(kind);
    this.kind = kind;
    this.detail = detail;
  }
}

// Where the number that starts at `index` ends: digits, a decimal part, an exponent.
function numberEnd(chars, index, decimal) {
  const digits = (at) => {
    while (isDigit(chars[at] ?? "")) at += 1;
    return at;
  };
  index = digits(index);
  if ((chars[index] === "." || (chars[index] === "," && decimal === ",")) && isDigit(chars[index + 1] ?? "")) {
    index = digits(index + 1);
  }
  if (chars[index] === "e" || chars[index] === "E") {
    const after = chars[index + 1] === "+" || chars[index + 1] === "-" ? index + 2 : index + 1;
    if (isDigit(chars[after] ?? "")) index = digits(after);
  }
  return index;
}

// A run of letters: a name, a function, or the names it is made of (the longest first at each place).
function word(text, names) {
  if (names.includes(text)) return [["name", text]];
  if (has(FUNCTIONS, text)) return [["func", text]];
  const known = [...new Set([...names, ...Object.keys(CONSTANTS)])].sort((a, b) => [...b].length - [...a].length);
  const found = [];
  for (let rest = text; rest;) {
    const name = known.find((candidate) => rest.startsWith(candidate));
    if (name === undefined) throw new FormulaError("unknown_name", text);
    found.push(["name", name]);
    rest = rest.slice(name.length);
  }
  return found;
}

export function tokens(text, names, decimal = ".") {
  // By code points, as Python counts characters.
  const chars = [...text];
  const found = [];
  for (let index = 0; index < chars.length;) {
    const char = chars[index];
    let end = index + 1;
    if (SPACES.includes(char)) {
      // nothing
    } else if (isSuper(char) || ((char === "⁻" || char === "⁺") && isSuper(chars[index + 1]))) {
      while (isSuper(chars[end])) end += 1;
      found.push(["op", "^"]);
      if (!isSuper(char)) found.push(["op", char === "⁻" ? "-" : "+"]);
      found.push(["num", chars.slice(index, end).filter(isSuper).map((sign) => SUPERSCRIPTS.indexOf(sign)).join("")]);
    } else if (isDigit(char) || (char === "." && isDigit(chars[index + 1] ?? ""))) {
      end = numberEnd(chars, index, decimal);
      found.push(["num", chars.slice(index, end).join("").replace(",", ".")]);
    } else if (char === "*" && chars[index + 1] === "*") {
      found.push(["op", "^"]);
      end += 1;
    } else if (has(SIGNS, char)) {
      found.push(["op", SIGNS[char]]);
    } else if (LETTER.test(char)) {
      while (end < chars.length && (LETTER.test(chars[end]) || isDigit(chars[end]) || chars[end] === "_")) end += 1;
      found.push(...word(chars.slice(index, end).join(""), names));
    } else {
      throw char === "," ? new FormulaError("comma") : new FormulaError("unexpected", char);
    }
    index = end;
  }
  return found;
}

const trimmed = (text) => {
  const chars = [...text];
  while (chars.length && SPACES.includes(chars[0])) chars.shift();
  while (chars.length && SPACES.includes(chars[chars.length - 1])) chars.pop();
  return chars.join("");
};

// The tree of an expression over the variables `names`, or a FormulaError. `decimal`: the page's decimal sign.
export function read(typed, names, decimal = ".") {
  if ([...typed].length > MAX_LENGTH) throw new FormulaError("too_long");
  // What a number field reads, a formula reads: digits of the learner's keyboard, no direction marks.
  const text = typedAscii(typed, decimal);
  if (!trimmed(text)) throw new FormulaError("empty");
  const found = tokens(text, names, decimal);
  let index = 0;
  let depth = 0;
  const peek = () => found[index] ?? null;
  const isOp = (...signs) => peek() !== null && peek()[0] === "op" && signs.includes(peek()[1]);
  const deeper = (parse) => {
    if (++depth > MAX_DEPTH) throw new FormulaError("too_deep");
    const tree = parse();
    depth -= 1;
    return tree;
  };
  const expression = () => deeper(() => {
    let tree = term();
    while (isOp("+", "-")) tree = [found[index++][1], tree, term()];
    return tree;
  });
  // A name, function or "(" right after a factor is a product written without its sign.
  const startsFactor = () => peek() !== null && (peek()[0] === "name" || peek()[0] === "func" || isOp("("));
  const term = () => {
    let tree = unary();
    for (;;) {
      if (isOp("*", "/")) tree = [found[index++][1], tree, unary()];
      else if (startsFactor()) tree = ["*", tree, unary()];
      else return tree;
    }
  };
  const unary = () => {
    if (!isOp("+", "-")) return power();
    const sign = found[index++][1];
    const operand = deeper(unary);
    return sign === "-" ? ["neg", operand] : operand;
  };
  const power = () => {
    const base = atom();
    if (!isOp("^")) return base;
    index += 1;
    return ["^", base, deeper(unary)];
  };
  const parenthesized = () => {
    index += 1;
    const inner = expression();
    if (!isOp(")")) throw new FormulaError("paren");
    index += 1;
    return inner;
  };
  const atom = () => {
    const token = peek();
    if (token === null) throw new FormulaError("end");
    const [kind, value] = token;
    if (kind === "op" && value === "(") return parenthesized();
    index += 1;
    if (kind === "num") return ["num", value];
    if (kind === "name") return [names.includes(value) ? "var" : "const", value];
    if (kind !== "func") throw new FormulaError("unexpected", value);
    if (!isOp("(")) throw new FormulaError("function_paren", value);
    return ["call", value, parenthesized()];
  };
  const tree = expression();
  const extra = peek();
  if (extra !== null) throw new FormulaError(extra[1] === ")" ? "paren" : "unexpected", extra[1]);
  return tree;
}

const finite = (value) => (Number.isFinite(value) ? value : NaN);
const OPERATIONS = { "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b, "/": (a, b) => a / b,
  "^": M.pow };

// The tree's value with the variables at `point`; NaN where it is undefined or not finite.
export function evaluate(tree, point) {
  const [kind, first, second] = tree;
  if (kind === "num") return finite(Number(first));
  if (kind === "var") return finite(Number(point[first]));
  if (kind === "const") return CONSTANTS[first];
  if (kind === "neg") return finite(-evaluate(first, point));
  const left = evaluate(kind === "call" ? second : first, point);
  if (kind === "call") return Number.isFinite(left) ? finite(FUNCTIONS[first](left)) : NaN;
  const right = evaluate(second, point);
  return Number.isFinite(left) && Number.isFinite(right) ? finite(OPERATIONS[kind](left, right)) : NaN;
}

const precedence = (tree) => (has(PRECEDENCE, tree[0]) ? PRECEDENCE[tree[0]] : 5);

// How the tree was read, every product and power written out: "2*n*(d+1)" for "2n(d+1)".
export function written(tree) {
  const [kind, left, right] = tree;
  const wrapped = (part, needs) => (needs ? `(${written(part)})` : written(part));
  if (kind === "num" || kind === "var" || kind === "const") return left;
  if (kind === "call") return `${left}(${written(right)})`;
  if (kind === "neg") return `-${wrapped(left, precedence(left) < PRECEDENCE.neg)}`;
  if (kind === "^") return `${wrapped(left, precedence(left) <= 4)}^${wrapped(right, precedence(right) <= 4)}`;
  const mine = PRECEDENCE[kind];
  return wrapped(left, precedence(left) < mine || (kind === "*" && left[0] === "/")) + kind
    + wrapped(right, precedence(right) < mine || (precedence(right) === mine && (kind === "-" || kind === "/"))
      || right[0] === "neg");
}

export function agrees(value, expected, atol, rtol) {
  return Number.isFinite(value) && Number.isFinite(expected) && M.abs(value - expected) <= atol + rtol * M.abs(expected);
}

// A typed expression against the key's values at the spec's points (formula.py's grade).
export function gradeFormula(spec, text, decimal = ".") {
  text = String(text);
  if (!trimmed(text)) return { status: "unanswered" };
  const names = spec.variables;
  let tree;
  try {
    tree = read(text, names, decimal);
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    return { status: "unreadable", formula: error.kind, detail: error.detail };
  }
  const right = spec.points.every((point, index) => agrees(
    evaluate(tree, Object.fromEntries(names.map((name, place) => [name, point[place]]))),
    spec.values[index], spec.atol, spec.rtol,
  ));
  return { status: right ? "correct" : "wrong", score: right ? 1 : 0, read: written(tree) };
}
