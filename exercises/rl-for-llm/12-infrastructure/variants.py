"""Module 12 (RL infrastructure): the figures of the quiz, most of them drawn afresh for each variant.

`values()` gives the figures every question shares. Each other function takes a `random.Random` seeded by the
build (variant k of a question from seed k) and returns the figures its question's text, answers and explanation
name: `{{ G }}`, `answer: "n*(G+T)"`. Derived figures the explanation shows (sums, intermediate products) are
returned too, so no figure on the page is typed by hand. A draw that would make a question's statement untrue is
refused by raising; the question says `invalid: skip` where that can happen. Standard library only, as every
values file.
"""

from __future__ import annotations

import math
import random

GB = 10**9
GiB = 2**30
KiB = 2**10
SECONDS_PER_HOUR = 3600


def values() -> dict[str, float]:
    """The module's fixed figures, for every question (a question's variant adds its own)."""
    return {"GiB": GiB}


def p02(rng: random.Random) -> dict[str, float]:
    """Training-state memory: bf16 weights (2 bytes), gradients in bf16 or fp32, each of Adam's two moments in
    bf16 or fp32; no master copy."""
    billions = rng.choice([0.5, 1.5, 3, 6, 7, 8, 9, 12, 13, 14, 20, 27, 32, 34, 40, 65, 70, 72])
    weight_bytes = 2
    gradient_bytes = rng.choice([2, 4])
    moment_bytes = rng.choice([2, 4])
    per_parameter = weight_bytes + gradient_bytes + 2 * moment_bytes
    parameters = billions * GB
    return {
        "N": parameters, "N_billion": billions, "G": gradient_bytes, "m": moment_bytes,
        "B": per_parameter, "B_master": per_parameter + 4,
        "gb": billions * per_parameter, "gib": parameters * per_parameter / GiB,
    }


def p03(rng: random.Random) -> dict[str, float]:
    """KV-cache size: powers of two where real models have them, so the answer is a short number of GiB."""
    layers = rng.choice([28, 32, 36, 40, 60, 64, 80])
    kv_heads = rng.choice([2, 4, 8, 16])
    head_dim = rng.choice([64, 128])
    sequences = rng.choice([8, 16, 32, 64])
    tokens = rng.choice([4096, 8192, 16384, 32768])
    bytes_per_number = 2
    token_bytes = 2 * layers * kv_heads * head_dim * bytes_per_number
    cache_tokens = sequences * tokens
    cache_bytes = token_bytes * cache_tokens
    # The explanation's point is a cache that rivals the weights, yet fits one server's memory.
    if not 4 * GiB <= cache_bytes <= 128 * GiB:
        raise ValueError(f"a {cache_bytes / GiB:g} GiB cache is outside 4-128 GiB")
    return {
        "L": layers, "H": kv_heads, "d": head_dim, "S": sequences, "T": tokens,
        "token_bytes": token_bytes, "token_kib": token_bytes / KiB, "N_tok": cache_tokens,
        "kv_bytes": cache_bytes, "kv_gib": cache_bytes / GiB,
    }


def p05(rng: random.Random) -> dict[str, float]:
    """A two-stage pipeline where generation is the slower stage, as the explanation says."""
    generation = rng.choice([35, 45, 50, 60, 75, 90])
    training = rng.choice([15, 25, 30, 35, 40, 45, 60])
    batches = rng.choice([8, 10, 12, 16, 20])
    if training >= generation:
        raise ValueError(f"training ({training} s) is not faster than generation ({generation} s)")
    # Under a third of generation, training hides in the pipeline almost entirely and the lesson is lost.
    if 3 * training < generation:
        raise ValueError(f"training ({training} s) is under a third of generation ({generation} s)")
    sequential = batches * (generation + training)
    pipelined = generation + training + (batches - 1) * generation
    return {
        "G": generation, "T": training, "n": batches, "n_rest": batches - 1, "GT": generation + training,
        "seq": sequential, "pipe": pipelined, "speedup": sequential / pipelined,
        "limit": (generation + training) / generation,
    }


def p08(rng: random.Random) -> dict[str, float]:
    """Four importance weights, one of which outweighs the other three together."""
    large = rng.randint(5, 11)
    small = [rng.choice([1, 1, 2, 3]) for _ in range(3)]
    assert large > sum(small), "the last weight must outweigh the other three"
    weights = [*small, large]
    total = sum(weights)
    squares = sum(weight * weight for weight in weights)
    ess = total * total / squares
    named = {f"w{index}": weight for index, weight in enumerate(weights, 1)}
    named |= {f"q{index}": weight * weight for index, weight in enumerate(weights, 1)}
    return {**named, "w_rest": sum(small), "sum_w": total, "sum_q": squares, "sum_w_sq": total * total,
            "ess": ess, "ess_norm": ess / len(weights)}


def p10(rng: random.Random) -> dict[str, float]:
    """Young's checkpoint interval for a write time C (seconds) and a mean time between failures M (hours)."""
    # C stays far below M (at most 300 s against at least 4 h), where Young's first-order formula holds.
    write_seconds = rng.choice([45, 90, 120, 150, 180, 240, 300])
    mtbf_hours = rng.choice([4, 6, 8, 10, 12, 16, 24, 36, 48])
    mtbf_seconds = mtbf_hours * SECONDS_PER_HOUR
    product = 2 * write_seconds * mtbf_seconds
    interval = math.sqrt(product)
    return {"C": write_seconds, "M_h": mtbf_hours, "M_s": mtbf_seconds, "CM2": product,
            "interval_s": interval, "interval_min": interval / 60}
