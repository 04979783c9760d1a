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
    effective_epochs                 how often a run repeats a domain of its data mix
    values                           every figure the course pages show, by name (`{{ e1_ratio:.2f }}`)
    fmt                              numbers written the way each language writes them
"""

from __future__ import annotations

import math
import runpy
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

GB = 10**9
GiB = 2**30

# The Llama 3 8B scenario of exercise E1 and the 70B alternative of E2.
LLAMA3_8B_PARAMS = 8.03e9
LLAMA3_8B_TOKENS = 15e12
BIG_PARAMS = 70e9

# The training-time scenario of section 2: 1024 accelerators with a bf16 peak of 989 TFLOP/s.
CLUSTER_GPUS = 1024
CLUSTER_PEAK_FLOPS = 989e12


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
    """Training state per process under ZeRO: stage 1 shards the optimiser, 2 also gradients, 3 also weights."""
    if stage not in (0, 1, 2, 3):
        raise ValueError("ZeRO stages are 0, 1, 2 and 3")
    weights = BYTES_WEIGHTS / (processes if stage >= 3 else 1)
    gradients = BYTES_GRADIENTS / (processes if stage >= 2 else 1)
    optimiser = BYTES_OPTIMIZER / (processes if stage >= 1 else 1)
    return params * (weights + gradients + optimiser)


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


# -- Data mix


def effective_epochs(run_tokens: float, share: float, unique_tokens: float) -> float:
    """How many times a run goes over a domain's unique tokens: the tokens it takes from it over their number."""
    return run_tokens * share / unique_tokens


# -- The figures of the course pages


def _half_up(value: float, digits: int) -> float:
    """Rounded half up, as the demo notebook prints it (2.625 -> 2.63, where format() gives 2.62)."""
    return float(Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def values() -> dict[str, float]:
    """Every figure the quiz and the exercises of module 9 show, in the units the text shows them.

    The pages write `{{ name:FORMAT }}` and the build fills in the number (module.yml: `values:`), so the
    text, the notebooks and the tests share one calculation. A suffix names the unit: _b billions,
    _t trillions, _gb 10^9 bytes, _gib 2^30 bytes, _pct percent; no suffix means the plain quantity.
    """
    # The demos live in their own file; it is run from its path, so nothing is cached next to it.
    demo = runpy.run_path(str(Path(__file__).with_name("pretrain_demo.py")))

    law = CHINCHILLA
    budget = train_flops(LLAMA3_8B_PARAMS, LLAMA3_8B_TOKENS)
    best = optimal_split(budget)
    loss_8b = law.loss(LLAMA3_8B_PARAMS, LLAMA3_8B_TOKENS)
    n_exponent, d_exponent, ratio_exponent = optimum_exponents()
    rule = rule_of_thumb_split(budget)
    half = isoflop_profile(budget, [0.5])[0]
    be = break_even()
    big_param_term = law.A * BIG_PARAMS**-law.alpha
    state = state_bytes(7e9)
    zero1, zero2, zero3 = (zero_state_bytes(7e9, 64, stage) for stage in (1, 2, 3))
    diagonal = newton_schulz([[3.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    transposed, plain = gram_work(64, 32, True), gram_work(64, 32, False)
    big_transposed, big_plain = gram_work(4096, 1024, True), gram_work(4096, 1024, False)

    figures: dict[str, float] = {
        # E1 (and quiz 9.4-9.7): the Llama 3 8B run against the compute-optimal split of its budget
        "e1_c": budget,
        "e1_param_term": law.A * LLAMA3_8B_PARAMS**-law.alpha,
        "e1_data_term": law.B * LLAMA3_8B_TOKENS**-law.beta,
        "e1_loss_8b": loss_8b,
        "e1_n_opt_b": best.params / 1e9,
        "e1_d_opt_t": best.tokens / 1e12,
        "e1_ratio": best.tokens_per_param,
        "e1_opt_param_term": law.A * best.params**-law.alpha,
        "e1_opt_data_term": law.B * best.tokens**-law.beta,
        "e1_beta_over_alpha": law.beta / law.alpha,
        "e1_loss_opt": best.loss,
        "e1_delta_loss": loss_8b - best.loss,
        "e1_delta_loss_rounded": round(loss_8b, 6) - round(best.loss, 6),
        "llama_d_over_n": LLAMA3_8B_TOKENS / LLAMA3_8B_PARAMS,
        "llama_over_opt_ratio": LLAMA3_8B_TOKENS / LLAMA3_8B_PARAMS / best.tokens_per_param,
        "n_opt_over_llama": best.params / LLAMA3_8B_PARAMS,
        "n_opt_exponent": n_exponent,
        "d_opt_exponent": d_exponent,
        "ratio_opt_exponent": ratio_exponent,
        "rule20_n_b": rule.params / 1e9,
        "rule20_d_t": rule.tokens / 1e12,
        "rule20_extra_loss": rule.loss - best.loss,
        "half_n_extra_loss": half["excess"],
        # E2 (and quiz 9.8, 9.16): break-even with inference, training time
        "e2_big_param_term": big_param_term,
        "e2_big_data_term": be.target_loss - law.E - big_param_term,
        "e2_d70": be.big_tokens,
        "e2_c70": be.big_compute,
        "e2_delta_c": be.saved_compute,
        "e2_extra_per_token": be.extra_per_token,
        "e2_t_star": be.tokens,
        "e2_t_star_days": be.tokens / 1e11,  # at 10^11 generated tokens a day
        "days_8b_mfu40": training_days(budget, CLUSTER_GPUS, CLUSTER_PEAK_FLOPS, 0.4),
        "days_8b_mfu30": training_days(budget, CLUSTER_GPUS, CLUSTER_PEAK_FLOPS, 0.3),
        "days_70b_mfu40": training_days(be.big_compute, CLUSTER_GPUS, CLUSTER_PEAK_FLOPS, 0.4),
        # E3 (and quiz 9.15): training state of a 7B model, the 1F1B bubble of eight stages
        "e3_state_gb": state / GB,
        "e3_state_gib": state / GiB,
        "e3_zero1_gb": zero1 / GB,
        "e3_zero2_gb": zero2 / GB,
        "e3_zero3_gb": zero3 / GB,
        "e3_zero3_gib": zero3 / GiB,
        "e3_bubble_32": bubble_fraction(8, 32),
        "e3_bubble_32_pct": 100 * bubble_fraction(8, 32),
        "e3_bubble_128": bubble_fraction(8, 128),
        "e3_bubble_128_pct": 100 * bubble_fraction(8, 128),
        "e3_bubble_134_pct": 100 * bubble_fraction(8, 134),
        "e3_min_microbatches": min_microbatches(8),
        # Quiz 9.5: effective epochs of a domain in a 2T-token run, the DCLM pool against its training run
        "epochs_domain_tokens_b": 2e12 * 0.10 / 1e9,
        "epochs_small_domain": effective_epochs(2e12, 0.10, 50e9),
        "epochs_large_domain": effective_epochs(2e12, 0.10, 500e9),
        "dclm_trained_of_pool_pct": 100 * 2.6e12 / 240e12,
        # Quiz 9.10, 9.12: Newton-Schulz and the Gram matrix of a 64x32 (and a 4096x1024) update
        "ns_diag_large": diagonal[0][0],
        "ns_diag_small": diagonal[1][1],
        "gram_entries_transposed": transposed["entries"],
        "gram_entries_plain": plain["entries"],
        "gram_mults_transposed": transposed["gram_mults"],
        "gram_mults_plain": plain["gram_mults"],
        "square_mults_transposed": transposed["square_mults"],
        "square_mults_plain": plain["square_mults"],
        "gram_saving_64x32": plain["gram_mults"] // transposed["gram_mults"],
        "square_saving_64x32": plain["square_mults"] // transposed["square_mults"],
        "gram_saving_4096x1024": big_plain["gram_mults"] // big_transposed["gram_mults"],
        "square_saving_4096x1024": big_plain["square_mults"] // big_transposed["square_mults"],
    }

    # E4: the eight documents of demo 1
    base = demo["run_pipeline"]()
    reordered = demo["run_pipeline"](order=("dedup", "quality", "language"))
    texts = {doc.id: doc.text for doc in demo["DOCUMENTS"]}
    figures["e4_similarity_d2_d1"] = base.dropped["D2"].value
    figures["e4_similarity_d6_d5"] = reordered.dropped["D6"].value
    figures["e4_similarity_d8_d1"] = demo["similarity"](texts["D8"], texts["D1"])
    for stage in base.stages:
        figures[f"e4_{stage.stage}_out"] = stage.docs_out
        figures[f"e4_{stage.stage}_of_input_pct"] = 100 * stage.docs_out / stage.docs_in
        figures[f"e4_{stage.stage}_of_pool_pct"] = 100 * stage.docs_out / base.pool_docs
    figures["e4_words_of_pool_pct"] = 100 * base.stages[-1].words_out / base.pool_words
    figures["e4_reordered_of_pool_pct"] = 100 * len(reordered.kept) / reordered.pool_docs

    # E5 (and quiz 9.15.1): memory per process of a 1B model under ZeRO 0-3 on 1, 2 and 8 processes
    rows = demo["zero_table"](1.0, (1, 2, 8))
    figures["e5_state_gb"] = rows[0].state_gb
    for row in rows:
        figures[f"e5_peak_gb_zero{row.stage}_p{row.processes}"] = row.peak_gb
        if row.stage == 3:
            figures[f"e5_naive_gb_p{row.processes}"] = row.naive_gb
            figures[f"e5_peak_over_naive_p{row.processes}"] = _half_up(row.peak_gb / row.naive_gb, 2)
    return figures


# -- Formatting


def fmt(value: float, spec: str = ".3f", lang: str = "en") -> str:
    """A number as each language writes it: 94.70 in English, 94,70 in Russian."""
    text = format(value, spec)
    return text.replace(".", ",") if lang == "ru" else text


def fmt_sci(value: float, digits: int = 3, lang: str = "en") -> str:
    """7.227e+23 as 7.227·10^23 (7,227·10^23 in Russian)."""
    mantissa, exponent = f"{value:.{digits}e}".split("e")
    return f"{fmt(float(mantissa), f'.{digits}f', lang)}·10^{int(exponent)}"
