"""Module 9 (pretraining): every figure of the quiz, the exercises and the module's notebook.

Standard library only, so the same file runs in CPython, in Jupyter and in Pyodide. The course pages, the
notebooks and the tests all take their numbers from here.

Contents
    ScalingLaw, CHINCHILLA           L(N, D) = E + A*N**-alpha + B*D**-beta
    train_flops, decode_flops        6*N*D for training, 2*N per generated token
    optimal_split                    the compute-optimal N, D for a budget C, solved numerically
    optimal_split_closed_form        the same optimum from its closed form (a cross-check)
    isoflop_profile                  the loss along a fixed budget as N moves away from the optimum
    rule_of_thumb_split              the "20 tokens per parameter" split of the same budget
    tokens_for_loss, break_even      when a smaller, longer-trained model pays off with inference
    training_days                    wall-clock time of a budget on a given cluster
    state_bytes, zero_state_bytes    training state per process, without sharding and with ZeRO 1-3
    bubble_fraction, min_microbatches the 1F1B pipeline bubble
    newton_schulz, singular_values   Muon's orthogonalisation on lists of lists
    fmt                              numbers written the way each language writes them
"""

from __future__ import annotations

import math
from dataclasses import dataclass

GB = 10**9
GiB = 2**30

# The Llama 3 8B scenario of exercise E1 and the 70B alternative of E2.
LLAMA3_8B_PARAMS = 8.03e9
LLAMA3_8B_TOKENS = 15e12
BIG_PARAMS = 70e9


# -- 1, 3, 4. Scaling law, compute-optimal split, isoFLOP profile, rule of thumb


@dataclass(frozen=True)
class ScalingLaw:
    """A parametric loss fit L(N, D) = E + A / N**alpha + B / D**beta."""

    E: float = 1.69
    A: float = 406.4
    alpha: float = 0.34
    B: float = 410.7
    beta: float = 0.28

    def loss(self, params: float, tokens: float) -> float:
        return self.E + self.A * params**-self.alpha + self.B * tokens**-self.beta


# The fit of Hoffmann et al. (2022), "Chinchilla", approach 3.
CHINCHILLA = ScalingLaw()


def train_flops(params: float, tokens: float) -> float:
    """Training compute, C = 6*N*D (forward and backward pass, dense model)."""
    return 6 * params * tokens


def decode_flops(params: float) -> float:
    """Compute per generated token of dense decoding, about 2*N."""
    return 2 * params


@dataclass(frozen=True)
class Split:
    budget: float
    params: float
    tokens: float
    loss: float

    @property
    def tokens_per_param(self) -> float:
        return self.tokens / self.params


def _optimality_gap(log_params: float, budget: float, law: ScalingLaw) -> float:
    """log(alpha*A*N**-alpha) - log(beta*B*D**-beta) with D = C/(6N): zero at the optimum, falling in N."""
    log_tokens = math.log(budget / 6) - log_params
    return (math.log(law.alpha * law.A) - law.alpha * log_params) - (math.log(law.beta * law.B) - law.beta * log_tokens)


def optimal_split(budget: float, law: ScalingLaw = CHINCHILLA) -> Split:
    """The N and D that minimise L(N, D) subject to 6*N*D = C.

    At the optimum the two marginal terms balance, alpha*A*N**-alpha = beta*B*D**-beta, which is the
    Lagrange condition of the constrained problem. The gap between them falls monotonically in log N, so
    bisection on log N finds the root to the last bit of a float.
    """
    low, high = 0.0, math.log(budget / 6)  # from N = 1 to D = 1
    for _ in range(200):
        middle = (low + high) / 2
        if _optimality_gap(middle, budget, law) > 0:
            low = middle
        else:
            high = middle
        if high - low < 1e-15:
            break
    params = math.exp((low + high) / 2)
    tokens = budget / (6 * params)
    return Split(budget, params, tokens, law.loss(params, tokens))


def optimal_split_closed_form(budget: float, law: ScalingLaw = CHINCHILLA) -> Split:
    """The same optimum in closed form: N* = (alpha*A / (beta*B))**(1/(alpha+beta)) * (C/6)**(beta/(alpha+beta))."""
    a, b = law.alpha, law.beta
    params = (a * law.A / (b * law.B)) ** (1 / (a + b)) * (budget / 6) ** (b / (a + b))
    tokens = budget / (6 * params)
    return Split(budget, params, tokens, law.loss(params, tokens))


def optimum_exponents(law: ScalingLaw = CHINCHILLA) -> tuple[float, float, float]:
    """How N*, D* and D*/N* grow with the budget: N* ~ C**a, D* ~ C**b, D*/N* ~ C**(b - a)."""
    a = law.beta / (law.alpha + law.beta)
    b = law.alpha / (law.alpha + law.beta)
    return a, b, b - a


def isoflop_profile(budget: float, factors: list[float], law: ScalingLaw = CHINCHILLA) -> list[dict[str, float]]:
    """The loss along the budget for N = factor * N*, with its excess over the optimum."""
    best = optimal_split(budget, law)
    rows = []
    for factor in factors:
        params = factor * best.params
        tokens = budget / (6 * params)
        loss = law.loss(params, tokens)
        rows.append({"factor": factor, "params": params, "tokens": tokens, "loss": loss, "excess": loss - best.loss})
    return rows


def rule_of_thumb_split(budget: float, tokens_per_param: float = 20, law: ScalingLaw = CHINCHILLA) -> Split:
    """The split that keeps D/N fixed: 6*N*(r*N) = C, so N = sqrt(C / (6r))."""
    params = math.sqrt(budget / (6 * tokens_per_param))
    tokens = tokens_per_param * params
    return Split(budget, params, tokens, law.loss(params, tokens))


# -- 2. Break-even with inference and the training time


def tokens_for_loss(params: float, target_loss: float, law: ScalingLaw = CHINCHILLA) -> float:
    """The D at which a model of N parameters reaches the given loss: solves L(N, D) = target for D."""
    room = target_loss - law.E - law.A * params**-law.alpha
    if room <= 0:
        raise ValueError("a model of this size never reaches that loss under this law")
    return (law.B / room) ** (1 / law.beta)


@dataclass(frozen=True)
class BreakEven:
    small_params: float
    small_tokens: float
    big_params: float
    big_tokens: float
    target_loss: float
    small_compute: float
    big_compute: float

    @property
    def saved_compute(self) -> float:
        """How much less compute the big model needs in training to reach the same loss."""
        return self.small_compute - self.big_compute

    @property
    def extra_per_token(self) -> float:
        """How much more every generated token costs on the big model."""
        return decode_flops(self.big_params) - decode_flops(self.small_params)

    @property
    def tokens(self) -> float:
        """Generated tokens after which the small model is cheaper in total (training + inference)."""
        return self.saved_compute / self.extra_per_token

    def total_compute(self, generated_tokens: float) -> tuple[float, float]:
        """Total compute of (small, big) after serving the given number of generated tokens."""
        return (self.small_compute + decode_flops(self.small_params) * generated_tokens,
                self.big_compute + decode_flops(self.big_params) * generated_tokens)


def break_even(small_params: float = LLAMA3_8B_PARAMS, small_tokens: float = LLAMA3_8B_TOKENS,
               big_params: float = BIG_PARAMS, law: ScalingLaw = CHINCHILLA) -> BreakEven:
    """A small model trained long against a big model trained just long enough to reach the same loss."""
    target = law.loss(small_params, small_tokens)
    big_tokens = tokens_for_loss(big_params, target, law)
    return BreakEven(small_params, small_tokens, big_params, big_tokens, target,
                     train_flops(small_params, small_tokens), train_flops(big_params, big_tokens))


def training_days(budget: float, gpus: int, peak_flops: float, mfu: float) -> float:
    """Wall-clock days for a budget: C / (GPUs * peak * MFU). Stalls and restarts come on top."""
    return budget / (gpus * peak_flops * mfu) / 86400


# -- 5. Muon: Newton-Schulz orthogonalisation

# Coefficients of Muon's quintic iteration: they lift small singular values quickly and leave every
# singular value in a band around 1 (roughly 0.7-1.2) rather than converging to exactly 1.
MUON_COEFFICIENTS = (3.4445, -4.7750, 2.0315)


def transpose(matrix: list[list[float]]) -> list[list[float]]:
    return [list(column) for column in zip(*matrix, strict=True)]


def matmul(left: list[list[float]], right: list[list[float]]) -> list[list[float]]:
    columns = transpose(right)
    return [[sum(a * b for a, b in zip(row, column, strict=True)) for column in columns] for row in left]


def newton_schulz(matrix: list[list[float]], steps: int = 5,
                  coefficients: tuple[float, float, float] = MUON_COEFFICIENTS) -> list[list[float]]:
    """An approximately orthogonal matrix with the singular vectors of `matrix` (Muon's update direction).

    A tall matrix is transposed first, so the Gram matrix X @ X.T is built on the smaller side; the result
    is transposed back to the input's shape. The input is left unchanged.
    """
    a, b, c = coefficients
    tall = len(matrix) > len(matrix[0])
    x = transpose(matrix) if tall else [list(row) for row in matrix]
    norm = math.sqrt(sum(value * value for row in x for value in row)) + 1e-7
    x = [[value / norm for value in row] for row in x]
    for _ in range(steps):
        gram = matmul(x, transpose(x))
        gram2 = matmul(gram, gram)
        poly = [[b * g + c * g2 for g, g2 in zip(row, row2, strict=True)]
                for row, row2 in zip(gram, gram2, strict=True)]
        x = [[a * value + extra for value, extra in zip(row, row_extra, strict=True)]
             for row, row_extra in zip(x, matmul(poly, x), strict=True)]
    return transpose(x) if tall else x


def gram_work(rows: int, cols: int, transpose_tall: bool = True) -> dict[str, int]:
    """Size of the Gram matrix and multiplications per step to form it and square it."""
    small, large = (min(rows, cols), max(rows, cols)) if transpose_tall else (rows, cols)
    return {"side": small, "entries": small * small, "gram_mults": small * small * large,
            "square_mults": small**3}


def _symmetric_eigenvalues(matrix: list[list[float]], sweeps: int = 100) -> list[float]:
    """Eigenvalues of a small symmetric matrix by cyclic Jacobi rotations, in ascending order."""
    s = [list(row) for row in matrix]
    n = len(s)
    for _ in range(sweeps):
        if sum(s[i][j] ** 2 for i in range(n) for j in range(n) if i != j) < 1e-30:
            break
        for p in range(n):
            for q in range(p + 1, n):
                if s[p][q] == 0:
                    continue
                angle = 0.5 * math.atan2(2 * s[p][q], s[q][q] - s[p][p])
                cos, sin = math.cos(angle), math.sin(angle)
                for k in range(n):
                    s[k][p], s[k][q] = cos * s[k][p] - sin * s[k][q], sin * s[k][p] + cos * s[k][q]
                for k in range(n):
                    s[p][k], s[q][k] = cos * s[p][k] - sin * s[q][k], sin * s[p][k] + cos * s[q][k]
    return sorted(s[i][i] for i in range(n))


def singular_values(matrix: list[list[float]]) -> list[float]:
    """Singular values (ascending) from the eigenvalues of the smaller Gram matrix."""
    x = transpose(matrix) if len(matrix) > len(matrix[0]) else matrix
    return [math.sqrt(max(0.0, value)) for value in _symmetric_eigenvalues(matrix=matmul(x, transpose(x)))]


# -- 6. Training state

# Bytes per parameter in mixed-precision training with AdamW:
# bf16 weights 2 + bf16 gradients 2 + fp32 master weights 4 + two fp32 moments 4 + 4.
BYTES_WEIGHTS = 2
BYTES_GRADIENTS = 2
BYTES_OPTIMIZER = 12
BYTES_PER_PARAM = BYTES_WEIGHTS + BYTES_GRADIENTS + BYTES_OPTIMIZER


def state_bytes(params: float, bytes_per_param: float = BYTES_PER_PARAM) -> float:
    """The whole training state of a model, held by one process when nothing is sharded."""
    return params * bytes_per_param


def zero_state_bytes(params: float, processes: int, stage: int) -> float:
    """Training state per process under ZeRO: stage 1 shards the optimizer, 2 also gradients, 3 also weights."""
    if stage not in (0, 1, 2, 3):
        raise ValueError("ZeRO stages are 0, 1, 2 and 3")
    weights = BYTES_WEIGHTS / (processes if stage >= 3 else 1)
    gradients = BYTES_GRADIENTS / (processes if stage >= 2 else 1)
    optimizer = BYTES_OPTIMIZER / (processes if stage >= 1 else 1)
    return params * (weights + gradients + optimizer)


# -- 7. Pipeline bubble


def bubble_fraction(stages: int, microbatches: int) -> float:
    """Idle share of a 1F1B pipeline step with equal stages: (p - 1) / (m + p - 1)."""
    if stages < 1 or microbatches < 1:
        raise ValueError("a pipeline needs at least one stage and one micro-batch")
    return (stages - 1) / (microbatches + stages - 1)


def min_microbatches(stages: int, limit: float = 0.05) -> int:
    """The smallest number of micro-batches whose bubble is strictly below the limit."""
    if stages == 1:
        return 1
    microbatches = 1
    while not bubble_fraction(stages, microbatches) < limit:
        microbatches += 1
    return microbatches


# -- Formatting


def fmt(value: float, spec: str = ".3f", lang: str = "en") -> str:
    """A number as each language writes it: 94.70 in English, 94,70 in Russian."""
    text = format(value, spec)
    return text.replace(".", ",") if lang == "ru" else text


def fmt_sci(value: float, digits: int = 3, lang: str = "en") -> str:
    """7.227e+23 as 7.227·10^23 (7,227·10^23 in Russian)."""
    mantissa, exponent = f"{value:.{digits}e}".split("e")
    return f"{fmt(float(mantissa), f'.{digits}f', lang)}·10^{int(exponent)}"
