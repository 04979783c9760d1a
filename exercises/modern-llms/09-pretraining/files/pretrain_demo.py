"""Module 9 demos, shared by the Russian and the English demo notebook. Standard library only, CPU only.

Demo 1  eight synthetic documents through a filter pipeline (language, quality, near-duplicates), with the
        reason for every decision and the share kept relative to the pool and to each stage's input.
Demo 2  ZeRO on plain Python lists: an ordinary matrix update against a two-shard update that gathers the
        weights, averages local gradients and updates only its own shard; then the memory per process of a
        1B model under ZeRO 0-3, with a gather buffer and an activation reserve.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

# -- Demo 1: a data filter pipeline


@dataclass(frozen=True)
class Document:
    id: str
    lang: str  # set by hand here; a real pipeline runs a language classifier
    quality: float  # set by hand here; a real pipeline runs a quality classifier
    text: str

    @property
    def words(self) -> int:
        return len(tokens(self.text))


DOCUMENTS = [
    Document("D1", "en", 0.90, "Gradient descent moves the weights in the direction that lowers the loss "
                               "on a batch of training examples."),
    Document("D2", "en", 0.85, "Gradient descent moves the weights in the direction that lowers the loss "
                               "on each batch of training examples."),
    Document("D3", "ru", 0.88, "Градиентный спуск сдвигает веса в сторону, где функция потерь на пакете "
                               "примеров убывает."),
    Document("D4", "en", 0.05, "click here best prices buy now click here free shipping best prices click here"),
    Document("D5", "en", 0.30, "Tokenisers cut text into pieces, and a larger vocabulary means shorter sequences "
                               "but a bigger embedding table. Log in to read more. Log in to read more."),
    Document("D6", "en", 0.80, "Tokenisers cut text into pieces, and a larger vocabulary means shorter sequences "
                               "but a bigger embedding table."),
    Document("D7", "de", 0.86, "Der Lernratenplan beginnt mit einer Aufwärmphase und fällt danach langsam ab."),
    Document("D8", "en", 0.75, "Gradient descent with momentum moves the weights in the direction of an average "
                               "of recent gradients on a batch of training examples."),
]

DEFAULT_ORDER = ("language", "quality", "dedup")
DEFAULT_SETTINGS = {"language": "en", "min_quality": 0.5, "max_similarity": 0.7}


def tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def similarity(first: str, second: str) -> float:
    """Jaccard similarity of the two texts' word sets (MinHash estimates the same quantity at scale)."""
    a, b = set(tokens(first)), set(tokens(second))
    return len(a & b) / len(a | b) if a | b else 1.0


@dataclass(frozen=True)
class Decision:
    """Why a stage dropped a document: the stage and what it measured."""

    stage: str
    value: float | str
    other: str = ""  # the kept document it duplicates


@dataclass
class StageReport:
    stage: str
    docs_in: int
    docs_out: int
    words_in: int
    words_out: int


@dataclass
class PipelineResult:
    order: tuple[str, ...]
    settings: dict
    kept: list[str]
    dropped: dict[str, Decision]
    stages: list[StageReport]
    pool_docs: int
    pool_words: int


def run_pipeline(documents: list[Document] = DOCUMENTS, order: tuple[str, ...] = DEFAULT_ORDER,
                 **settings) -> PipelineResult:
    """Each stage sees only what the stages before it kept, in the pool's order."""
    options = {**DEFAULT_SETTINGS, **settings}
    current = list(documents)
    dropped: dict[str, Decision] = {}
    stages = []
    for stage in order:
        survivors = []
        for doc in current:
            decision = _judge(stage, doc, survivors, options)
            if decision is None:
                survivors.append(doc)
            else:
                dropped[doc.id] = decision
        stages.append(StageReport(stage, len(current), len(survivors), sum(d.words for d in current),
                                  sum(d.words for d in survivors)))
        current = survivors
    return PipelineResult(tuple(order), options, [d.id for d in current], dropped, stages, len(documents),
                          sum(d.words for d in documents))


def _judge(stage: str, doc: Document, kept: list[Document], options: dict) -> Decision | None:
    if stage == "language":
        return None if doc.lang == options["language"] else Decision(stage, doc.lang)
    if stage == "quality":
        return None if doc.quality >= options["min_quality"] else Decision(stage, doc.quality)
    if stage == "dedup":
        if not kept:
            return None
        score, other = max((similarity(doc.text, k.text), k.id) for k in kept)
        return Decision(stage, score, other) if score >= options["max_similarity"] else None
    raise ValueError(f"unknown stage {stage!r}")


STAGE_NAMES = {
    "ru": {"language": "язык", "quality": "качество", "dedup": "почти-дубликаты"},
    "en": {"language": "language", "quality": "quality", "dedup": "near-duplicates"},
}


def num(value: float, digits: int, lang: str) -> str:
    """Rounded half up, as people round by hand (2.625 -> 2.63), with a decimal comma in Russian."""
    text = str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))
    return text.replace(".", ",") if lang == "ru" else text


def pct(value: float, lang: str) -> str:
    return f"{num(100 * value, 1, lang)} %" if lang == "ru" else f"{100 * value:.1f}%"


def reason(result: PipelineResult, doc_id: str, lang: str = "en") -> str:
    """One line per document: kept, or which stage dropped it and why."""
    decision = result.dropped.get(doc_id)
    options = result.settings
    if decision is None:
        return "оставлен: прошёл все стадии" if lang == "ru" else "kept: passed every stage"
    if decision.stage == "language":
        if lang == "ru":
            return f"язык: метка «{decision.value}», а нужен «{options['language']}»"
        return f"language: labelled “{decision.value}”, the target is “{options['language']}”"
    if decision.stage == "quality":
        value, limit = num(decision.value, 2, lang), num(options["min_quality"], 2, lang)
        if lang == "ru":
            return f"качество: оценка {value} ниже порога {limit}"
        return f"quality: score {value} is below the threshold {limit}"
    value, limit = num(decision.value, 3, lang), num(options["max_similarity"], 2, lang)
    if lang == "ru":
        return f"почти-дубликат {decision.other}: сходство {value} не ниже порога {limit}"
    return f"near-duplicate of {decision.other}: similarity {value} reaches the threshold {limit}"


def reasons_table(result: PipelineResult, documents: list[Document] = DOCUMENTS, lang: str = "en") -> str:
    head = ("док.", "язык", "кач.", "слов", "решение") if lang == "ru" else ("doc", "lang", "qual.", "words",
                                                                            "decision")
    lines = [f"{head[0]:<5} {head[1]:<5} {head[2]:<6} {head[3]:<5} {head[4]}"]
    for doc in documents:
        lines.append(f"{doc.id:<5} {doc.lang:<5} {num(doc.quality, 2, lang):<6} {doc.words:<5} "
                     f"{reason(result, doc.id, lang)}")
    return "\n".join(lines)


def shares_table(result: PipelineResult, lang: str = "en") -> str:
    """Documents and words after each stage, as a share of the stage's input and of the pool."""
    if lang == "ru":
        head = ("стадия", "вход", "выход", "от входа", "от пула", "слова: от входа", "от пула")
    else:
        head = ("stage", "in", "out", "of input", "of pool", "words: of input", "of pool")
    lines = [f"{head[0]:<16} {head[1]:>5} {head[2]:>6} {head[3]:>9} {head[4]:>9} {head[5]:>16} {head[6]:>9}"]
    for s in result.stages:
        lines.append(
            f"{STAGE_NAMES[lang][s.stage]:<16} {s.docs_in:>5} {s.docs_out:>6} "
            f"{pct(s.docs_out / s.docs_in, lang):>9} {pct(s.docs_out / result.pool_docs, lang):>9} "
            f"{pct(s.words_out / s.words_in, lang):>16} {pct(s.words_out / result.pool_words, lang):>9}")
    return "\n".join(lines)


def compare(first: PipelineResult, second: PipelineResult) -> dict[str, list[str]]:
    """Which documents the two runs keep differently, and whose reason changed."""
    ids = [d.id for d in DOCUMENTS]
    return {
        "only_first": [i for i in ids if i in first.kept and i not in second.kept],
        "only_second": [i for i in ids if i in second.kept and i not in first.kept],
        "reason_changed": [i for i in ids if first.dropped.get(i) != second.dropped.get(i)],
    }


# -- Demo 2: sharded update on CPU

Matrix = list[list[float]]


def make_problem(rows: int = 4, cols: int = 3, batch: int = 8, seed: int = 9) -> tuple[Matrix, Matrix, Matrix]:
    """Initial weights W (rows x cols), inputs X (batch x cols) and targets Y (batch x rows)."""
    rng = random.Random(seed)
    weights = [[rng.uniform(-1, 1) for _ in range(cols)] for _ in range(rows)]
    inputs = [[rng.uniform(-1, 1) for _ in range(cols)] for _ in range(batch)]
    targets = [[rng.uniform(-1, 1) for _ in range(rows)] for _ in range(batch)]
    return weights, inputs, targets


def gradient(weights: Matrix, inputs: Matrix, targets: Matrix) -> Matrix:
    """Gradient of the mean of 0.5*||W x - y||^2 over the examples: mean of (W x - y) x^T."""
    rows, cols = len(weights), len(weights[0])
    grad = [[0.0] * cols for _ in range(rows)]
    for x, y in zip(inputs, targets, strict=True):
        error = [sum(w * v for w, v in zip(row, x, strict=True)) - t
                 for row, t in zip(weights, y, strict=True)]
        for i in range(rows):
            for j in range(cols):
                grad[i][j] += error[i] * x[j] / len(inputs)
    return grad


def loss(weights: Matrix, inputs: Matrix, targets: Matrix) -> float:
    total = 0.0
    for x, y in zip(inputs, targets, strict=True):
        total += 0.5 * sum((sum(w * v for w, v in zip(row, x, strict=True)) - t) ** 2
                           for row, t in zip(weights, y, strict=True))
    return total / len(inputs)


def plain_training(weights: Matrix, inputs: Matrix, targets: Matrix, steps: int, lr: float = 0.1,
                   momentum: float = 0.9) -> Matrix:
    """One process holds everything: weights, the full batch's gradient and the momentum buffer."""
    w = [row[:] for row in weights]
    buffer = [[0.0] * len(row) for row in w]
    for _ in range(steps):
        grad = gradient(w, inputs, targets)
        for i, row in enumerate(w):
            for j in range(len(row)):
                buffer[i][j] = momentum * buffer[i][j] + grad[i][j]
                row[j] -= lr * buffer[i][j]
    return w


@dataclass
class Shard:
    """What one process owns: a block of rows of W and the momentum of exactly those rows."""

    rank: int
    rows: range
    weights: Matrix
    buffer: Matrix


def sharded_training(weights: Matrix, inputs: Matrix, targets: Matrix, steps: int, processes: int = 2,
                     lr: float = 0.1, momentum: float = 0.9) -> list[Shard]:
    """ZeRO-3 in miniature. Each step, every process:
    1. gathers the full W from all shards (all-gather), used only for this step's computation;
    2. computes the gradient on its own part of the batch;
    3. receives the average of all local gradients for its own rows (reduce-scatter);
    4. updates its rows and their momentum; the gathered copy of W is then thrown away.
    """
    rows = len(weights)
    if processes < 1 or rows % processes or len(inputs) % processes:
        raise ValueError(f"cannot split {rows} rows and a batch of {len(inputs)} between {processes} processes: "
                         "choose a number of processes that divides both (or change make_problem’s rows and batch)")
    per = rows // processes
    shards = [Shard(r, range(r * per, (r + 1) * per), [weights[i][:] for i in range(r * per, (r + 1) * per)],
                    [[0.0] * len(weights[0]) for _ in range(per)]) for r in range(processes)]
    size = len(inputs) // processes
    batches = [(inputs[r * size:(r + 1) * size], targets[r * size:(r + 1) * size]) for r in range(processes)]
    for _ in range(steps):
        gathered = [row[:] for shard in shards for row in shard.weights]  # all-gather
        local = [gradient(gathered, x, y) for x, y in batches]  # each process, its own examples
        for shard in shards:  # reduce-scatter: average, keep own rows
            for k, i in enumerate(shard.rows):
                for j in range(len(gathered[0])):
                    g = sum(grad[i][j] for grad in local) / processes
                    shard.buffer[k][j] = momentum * shard.buffer[k][j] + g
                    shard.weights[k][j] -= lr * shard.buffer[k][j]
    return shards


def assemble(shards: list[Shard]) -> Matrix:
    return [row[:] for shard in shards for row in shard.weights]


def max_difference(first: Matrix, second: Matrix) -> float:
    return max(abs(a - b) for ra, rb in zip(first, second, strict=True)
               for a, b in zip(ra, rb, strict=True))


# -- Demo 2: memory per process under ZeRO 0-3

BYTES = {"weights": 2, "gradients": 2, "optimiser": 12}  # bf16, bf16, fp32 master + two AdamW moments


@dataclass(frozen=True)
class MemoryRow:
    stage: int
    processes: int
    state_gb: float
    gather_gb: float
    activations_gb: float

    @property
    def peak_gb(self) -> float:
        return self.state_gb + self.gather_gb + self.activations_gb

    @property
    def naive_gb(self) -> float:
        """The whole 16 bytes/param state divided by the number of processes."""
        return 16 * self.params_b / self.processes

    params_b: float = 1.0


def zero_memory(params_b: float = 1.0, processes: int = 1, stage: int = 0, layers: int = 16,
                prefetch_layers: int = 2, activations_gb: float = 3.0) -> MemoryRow:
    """Memory per process in GB (1 GB = 10^9 bytes) for a model of params_b billion parameters.

    Stage 1 shards the optimiser state, stage 2 also the gradients, stage 3 also the weights. Under stage 3
    with more than one process, the full bf16 weights of `prefetch_layers` layers are gathered at a time.
    The activation reserve depends on the micro-batch each process runs, not on the number of processes.
    """
    split = {"optimiser": stage >= 1, "gradients": stage >= 2, "weights": stage >= 3}
    state = sum(params_b * b / (processes if split[part] else 1) for part, b in BYTES.items())
    gather = prefetch_layers * params_b / layers * BYTES["weights"] if stage == 3 and processes > 1 else 0.0
    return MemoryRow(stage, processes, state, gather, activations_gb, params_b)


def zero_table(params_b: float = 1.0, process_counts: tuple[int, ...] = (1, 2, 8), **options) -> list[MemoryRow]:
    return [zero_memory(params_b, p, stage, **options) for stage in range(4) for p in process_counts]


def format_zero_table(rows: list[MemoryRow], lang: str = "en") -> str:
    """GB per process; the last two columns compare the peak with 16 bytes/param divided by the process count."""
    if lang == "ru":
        head = ("ZeRO", "проц.", "состояние", "сборка", "активации", "пик", "16N/P", "пик/(16N/P)")
    else:
        head = ("ZeRO", "procs", "state", "gather", "activ.", "peak", "16N/P", "peak/(16N/P)")
    lines = [f"{head[0]:<5}{head[1]:>6}{head[2]:>11}{head[3]:>8}{head[4]:>11}{head[5]:>8}{head[6]:>8}{head[7]:>14}"]
    for r in rows:
        lines.append(f"{r.stage:<5}{r.processes:>6}{num(r.state_gb, 2, lang):>11}{num(r.gather_gb, 2, lang):>8}"
                     f"{num(r.activations_gb, 2, lang):>11}{num(r.peak_gb, 2, lang):>8}"
                     f"{num(r.naive_gb, 2, lang):>8}{num(r.peak_gb / r.naive_gb, 2, lang):>14}")
    return "\n".join(lines)
