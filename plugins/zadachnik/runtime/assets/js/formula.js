// Formula answers: an expression a learner types ("16*N", "2n(d+1)", "N/10^9"), read into a tree and evaluated.
// Mirrors zadachnik/core/formula.py rule for rule; both are held to tests/vectors/formula.json. Read there what
// is accepted: numbers, + - * / and powers, parentheses, FUNCTIONS, pi and e, and the question's own names.

export const FUNCTIONS = {
  sqrt: Math.sqrt, exp: Math.exp, ln: Math.log, log: Math.log, log2: Math.log2, log10: Math.log10,
  sin: Math.sin, cos: Math.cos, tan: Math.tan, abs: Math.abs,
};
export const CONSTANTS = { pi: Math.PI, "π": Math.PI, e: Math.E };
export const MAX_LENGTH = 500;
const MAX_DEPTH = 50;
const SIGNS = { "+": "+", "-": "-", "\u2212": "-", "*": "*", "·": "*", "×": "*", "/": "/", "÷": "/", "^": "^",
  "(": "(", ")": ")" };
const SPACES = " \t\n\r\f\v\u00a0\u2002\u2003\u2009\u202f";
const SUPERSCRIPTS = { "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8",
  "⁹": "9" };
const PRECEDENCE = { "+": 1, "-": 1, "*": 2, "/": 2, neg: 3, "^": 4 };
const LETTER = /^\p{L}$/u;
const own = (table, key) => Object.hasOwn(table, key);

export class FormulaError extends Error {
  constructor(kind, detail = "") {
    super(detail ? `${kind}: ${detail}` : kind);
    this.kind = kind;
    this.detail = detail;
  }
}

const isDigit = (char) => char >= "0" && char <= "9";
const isSpace = (char) => SPACES.includes(char);

function numberEnd(chars, start, decimal) {
  let index = start;
  while (index < chars.length && isDigit(chars[index])) index += 1;
  if (index + 1 < chars.length && (chars[index] === "." || (chars[index] === "," && decimal === ","))
      && isDigit(chars[index + 1])) {
    index += 1;
    while (index < chars.length && isDigit(chars[index])) index += 1;
  }
  if (index < chars.length && (chars[index] === "e" || chars[index] === "E")) {
    let after = index + 1;
    if (after < chars.length && (chars[after] === "+" || chars[after] === "-")) after += 1;
    if (after < chars.length && isDigit(chars[after])) {
      index = after;
      while (index < chars.length && isDigit(chars[index])) index += 1;
    }
  }
  return index;
}

// `word` as a run of known names (the longest first at each place), or null.
function namesIn(word, names) {
  const known = [...new Set([...names, ...Object.keys(CONSTANTS)])].sort((a, b) => [...b].length - [...a].length);
  const found = [];
  let rest = word;
  while (rest) {
    const name = known.find((candidate) => rest.startsWith(candidate));
    if (name === undefined) return null;
    found.push(name);
    rest = rest.slice(name.length);
  }
  return found;
}

function wordTokens(word, names) {
  if (names.includes(word)) return [{ kind: "name", text: word }];
  if (own(FUNCTIONS, word)) return [{ kind: "func", text: word }];
  const split = namesIn(word, names);
  if (split === null) throw new FormulaError("unknown_name", word);
  return split.map((name) => ({ kind: "name", text: name }));
}

export function tokens(text, names, decimal = ".") {
  // By code points, as Python counts characters.
  const chars = [...text];
  const found = [];
  let index = 0;
  while (index < chars.length) {
    const char = chars[index];
    if (isSpace(char)) {
      index += 1;
    } else if (own(SUPERSCRIPTS, char) || ((char === "⁻" || char === "⁺") && own(SUPERSCRIPTS, chars[index + 1] ?? ""))) {
      let end = index + 1;
      while (end < chars.length && own(SUPERSCRIPTS, chars[end])) end += 1;
      found.push({ kind: "op", text: "^" });
      if (char === "⁻" || char === "⁺") found.push({ kind: "op", text: char === "⁻" ? "-" : "+" });
      found.push({ kind: "num", text: chars.slice(index, end).filter((sign) => own(SUPERSCRIPTS, sign))
        .map((sign) => SUPERSCRIPTS[sign]).join("") });
      index = end;
    } else if (isDigit(char) || (char === "." && isDigit(chars[index + 1] ?? ""))) {
      const end = numberEnd(chars, index, decimal);
      found.push({ kind: "num", text: chars.slice(index, end).join("").replace(",", ".") });
      index = end;
    } else if (char === "*" && chars[index + 1] === "*") {
      found.push({ kind: "op", text: "^" });
      index += 2;
    } else if (own(SIGNS, char)) {
      found.push({ kind: "op", text: SIGNS[char] });
      index += 1;
    } else if (LETTER.test(char)) {
      let end = index + 1;
      while (end < chars.length && (LETTER.test(chars[end]) || isDigit(chars[end]) || chars[end] === "_")) end += 1;
      found.push(...wordTokens(chars.slice(index, end).join(""), names));
      index = end;
    } else if (char === ",") {
      throw new FormulaError("comma");
    } else {
      throw new FormulaError("unexpected", char);
    }
  }
  return found;
}

class Parser {
  constructor(found, names) {
    this.tokens = found;
    this.names = names;
    this.index = 0;
    this.depth = 0;
  }

  peek() {
    return this.index < this.tokens.length ? this.tokens[this.index] : null;
  }

  take() {
    const token = this.tokens[this.index];
    this.index += 1;
    return token;
  }

  isOp(...texts) {
    const token = this.peek();
    return token !== null && token.kind === "op" && texts.includes(token.text);
  }

  deeper() {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new FormulaError("too_deep");
  }

  expression() {
    this.deeper();
    let node = this.term();
    while (this.isOp("+", "-")) node = [this.take().text, node, this.term()];
    this.depth -= 1;
    return node;
  }

  term() {
    let node = this.unary();
    for (;;) {
      if (this.isOp("*", "/")) node = [this.take().text, node, this.unary()];
      else if (this.startsFactor()) node = ["*", node, this.unary()];
      else return node;
    }
  }

  // A name, function or "(" right after a factor: a product written without its sign.
  startsFactor() {
    const token = this.peek();
    return token !== null && (token.kind === "name" || token.kind === "func" || (token.kind === "op" && token.text === "("));
  }

  unary() {
    if (this.isOp("+", "-")) {
      const sign = this.take().text;
      this.deeper();
      const operand = this.unary();
      this.depth -= 1;
      return sign === "-" ? ["neg", operand] : operand;
    }
    return this.power();
  }

  power() {
    const base = this.atom();
    if (!this.isOp("^")) return base;
    this.take();
    this.deeper();
    const exponent = this.unary();
    this.depth -= 1;
    return ["^", base, exponent];
  }

  atom() {
    const token = this.peek();
    if (token === null) throw new FormulaError("end");
    this.take();
    if (token.kind === "num") return ["num", token.text];
    if (token.kind === "name") return [this.names.includes(token.text) ? "var" : "const", token.text];
    if (token.kind === "func") {
      if (!this.isOp("(")) throw new FormulaError("function_paren", token.text);
      return ["call", token.text, this.parenthesized()];
    }
    if (token.text === "(") {
      this.index -= 1;
      return this.parenthesized();
    }
    throw new FormulaError("unexpected", token.text);
  }

  parenthesized() {
    this.take();
    const inner = this.expression();
    if (!this.isOp(")")) throw new FormulaError("paren");
    this.take();
    return inner;
  }
}

const trimmed = (text) => {
  const chars = [...text];
  let start = 0;
  let end = chars.length;
  while (start < end && isSpace(chars[start])) start += 1;
  while (end > start && isSpace(chars[end - 1])) end -= 1;
  return chars.slice(start, end).join("");
};

// The tree of an expression over the variables `names`, or a FormulaError. `decimal`: the page's decimal sign.
export function read(text, names, decimal = ".") {
  if ([...text].length > MAX_LENGTH) throw new FormulaError("too_long");
  if (!trimmed(text)) throw new FormulaError("empty");
  const parser = new Parser(tokens(text, names, decimal), names);
  const tree = parser.expression();
  const extra = parser.peek();
  if (extra !== null) throw new FormulaError(extra.text === ")" ? "paren" : "unexpected", extra.text);
  return tree;
}

const finite = (value) => (Number.isFinite(value) ? value : NaN);

function binary(op, left, right) {
  if (!Number.isFinite(left) || !Number.isFinite(right)) return NaN;
  if (op === "+") return left + right;
  if (op === "-") return left - right;
  if (op === "*") return left * right;
  if (op === "/") return left / right;
  return Math.pow(left, right);
}

// The tree's value with the variables at `point`; NaN where it is undefined or not finite.
export function evaluate(tree, point) {
  const [kind] = tree;
  if (kind === "num") return finite(Number(tree[1]));
  if (kind === "var") return finite(Number(point[tree[1]]));
  if (kind === "const") return CONSTANTS[tree[1]];
  if (kind === "neg") return finite(-evaluate(tree[1], point));
  if (kind === "call") {
    const argument = evaluate(tree[2], point);
    return Number.isFinite(argument) ? finite(FUNCTIONS[tree[1]](argument)) : NaN;
  }
  return finite(binary(kind, evaluate(tree[1], point), evaluate(tree[2], point)));
}

const precedence = (tree) => (own(PRECEDENCE, tree[0]) ? PRECEDENCE[tree[0]] : 5);

// How the tree was read, every product and power written out: "2*n*(d+1)" for "2n(d+1)".
export function written(tree) {
  const [kind] = tree;
  if (kind === "num" || kind === "var" || kind === "const") return tree[1];
  if (kind === "call") return `${tree[1]}(${written(tree[2])})`;
  if (kind === "neg") {
    const inner = written(tree[1]);
    return precedence(tree[1]) < PRECEDENCE.neg ? `-(${inner})` : `-${inner}`;
  }
  const [, left, right] = tree;
  const wrapped = (part, needs) => (needs ? `(${written(part)})` : written(part));
  if (kind === "^") {
    return `${wrapped(left, precedence(left) <= PRECEDENCE["^"])}^${wrapped(right, precedence(right) <= PRECEDENCE["^"])}`;
  }
  const mine = PRECEDENCE[kind];
  const leftNeeds = precedence(left) < mine || (kind === "*" && left[0] === "/");
  const rightNeeds = precedence(right) < mine || (precedence(right) === mine && (kind === "-" || kind === "/"))
    || right[0] === "neg";
  return `${wrapped(left, leftNeeds)}${kind}${wrapped(right, rightNeeds)}`;
}

export function agrees(value, expected, atol, rtol) {
  if (!Number.isFinite(value) || !Number.isFinite(expected)) return false;
  return Math.abs(value - expected) <= atol + rtol * Math.abs(expected);
}

// A typed expression against the key's values at the spec's points (formula.py's grade).
export function gradeFormula(spec, text, decimal = ".") {
  if (!trimmed(String(text))) return { status: "unanswered" };
  const names = spec.variables;
  let tree;
  try {
    tree = read(String(text), names, decimal);
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
