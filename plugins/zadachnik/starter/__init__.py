"""The starter site `zadachnik new` writes: mkdocs.yml, a home page per language and one small module whose quiz
uses every question type (a code exercise and a checker among them) and whose exercises page has course files.

The texts are data, one entry per language; a block's YAML is shared by every language, as in any source. A site
in one language gets what its author would write: plain strings, and blocks without language parts."""

from __future__ import annotations

import json

# The languages whose page words the package has (i18n.STRINGS): the starter is written in these.
SUPPORTED = ("ru", "en")
COURSE_ID = "first-course"
MODULE = "01-first-steps"

# The Markdown extensions the guide recommends: admonitions, tables and content tabs work in questions too.
MKDOCS_YML = """\
# A Zadachnik course site: `mkdocs serve` previews it, `mkdocs build --strict` writes it to site/.
site_name: {site_name}
strict: true

theme:
  name: material
  # The plugin sets each page's language itself ({first} at the root).
  language: {first}
  features:
    - navigation.sections
    - navigation.top
    - content.tabs.link
    - search.highlight
  # No fonts from the web: the system's own.
  font: false

markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - tables
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
  - toc:
      permalink: true

plugins:
  - search:
      lang: [{languages}]
  - zadachnik:
      exercises_dir: exercises
      languages: [{languages}]
"""

GITIGNORE = "site/\n.cache/\n"

TEXT: dict[str, dict[str, str]] = {
    "ru": {
        "site_name": "Мой курс",
        "home": """\
# Мой курс

Этот сайт собран из исходников в папке `exercises/`. Правьте их и смотрите результат
командой `mkdocs serve`; `zadachnik check` проверяет исходники без сборки сайта.

<div class="zadachnik-courses">
Список курсов составляет плагин Zadachnik, но при сборке этого сайта он не запускался.
</div>
""",
        "course": "Первый курс",
        "module": "Первые шаги",
        "readme": "# Файлы модуля\n\n`mean.py` — функция среднего из вопроса Q7.\n",
    },
    "en": {
        "site_name": "My course",
        "home": """\
# My course

This site is built from the sources in `exercises/`. Edit them and watch the result with
`mkdocs serve`; `zadachnik check` checks the sources without building the site.

<div class="zadachnik-courses">
The course list is made by the Zadachnik plugin, which did not run when this site was built.
</div>
""",
        "course": "First course",
        "module": "First steps",
        "readme": "# Module files\n\n`mean.py` is the mean function of question Q7.\n",
    },
}

MEAN_PY = '''\
"""The mean of a list of numbers, as question Q7 asks for it."""


def mean(numbers):
    return sum(numbers) / len(numbers)


if __name__ == "__main__":
    print(mean([1, 2, 3]))
'''

# Each block: its id, its YAML (where {name} is filled with one text per site language) and, per language,
# its title and its text.
QUIZ: list[dict] = [
    {
        "id": "Q1",
        "yaml": "type: single\nanswer: B",
        "ru": ("Простое число", """\
Какое из этих чисел простое?

options:
A. 21
B. 23
C. 27

explanation:
Верен вариант B: 23 делится только на 1 и на себя, а $21 = 3 \\cdot 7$ и $27 = 3^3$."""),
        "en": ("A prime number", """\
Which of these numbers is prime?

options:
A. 21
B. 23
C. 27

explanation:
B is correct: 23 divides only by 1 and itself, while $21 = 3 \\cdot 7$ and $27 = 3^3$."""),
    },
    {
        "id": "Q2",
        "yaml": "type: multiple\nanswer: [1, 3]\nscoring: net-correct",
        "ru": ("Чётные числа", """\
Отметьте все чётные числа.

options:
1. 4
2. 7
3. 10
4. 15

explanation:
Чётны 4 и 10: они делятся на 2 без остатка."""),
        "en": ("Even numbers", """\
Tick every even number.

options:
1. 4
2. 7
3. 10
4. 15

explanation:
4 and 10 are even: they divide by 2 with no remainder."""),
    },
    {
        "id": "Q3",
        "yaml": "type: numeric\nfields:\n  speed: {answer: 120/1.5, rtol: 0.01, unit: {units}}",
        "units": {"ru": "км/ч", "en": "km/h"},
        "ru": ("Скорость поезда", """\
Поезд проходит 120 км за полтора часа. С какой средней скоростью он едет?

fields:
- speed: Скорость $v$

explanation:
$$
v = \\frac{s}{t} = \\frac{120}{1{,}5} = 80\\ \\text{км/ч}.
$$"""),
        "en": ("The speed of a train", """\
A train covers 120 km in an hour and a half. What is its average speed?

fields:
- speed: Speed $v$

explanation:
$$
v = \\frac{s}{t} = \\frac{120}{1.5} = 80\\ \\text{km/h}.
$$"""),
    },
    {
        "id": "Q4",
        "yaml": "type: matching\nanswer: {1: B, 2: A, 3: C}",
        "ru": ("Производные", """\
Сопоставьте каждой функции её производную.

items:
1. $x^2$
2. $\\sin x$
3. $e^x$

options:
A. $\\cos x$
B. $2x$
C. $e^x$
D. $-\\sin x$

explanation:
1 → B, 2 → A, 3 → C. Вариант D — производная $\\cos x$, а не этих функций."""),
        "en": ("Derivatives", """\
Match each function with its derivative.

items:
1. $x^2$
2. $\\sin x$
3. $e^x$

options:
A. $\\cos x$
B. $2x$
C. $e^x$
D. $-\\sin x$

explanation:
1 → B, 2 → A, 3 → C. Option D is the derivative of $\\cos x$, not of any of these."""),
    },
    {
        "id": "Q5",
        "yaml": "type: open",
        "ru": ("Деление на ноль", """\
Объясните своими словами, почему на ноль делить нельзя.

explanation:
Частное $a/b$ — это число $c$, для которого $b \\cdot c = a$. При $b = 0$ и $a \\ne 0$
такого числа нет, а при $a = 0$ подходит любое, так что частное не определено."""),
        "en": ("Division by zero", """\
Explain in your own words why a number cannot be divided by zero.

explanation:
The quotient $a/b$ is the number $c$ for which $b \\cdot c = a$. With $b = 0$ and $a \\ne 0$
there is no such number, and with $a = 0$ any number will do, so the quotient is undefined."""),
    },
    {
        "id": "Q6",
        "yaml": "type: mixed\nauto: single\nanswer: B",
        "ru": ("Дроби в Python", """\
Что выведет Python для `0.1 + 0.2 == 0.3`? Выберите ответ и объясните его.

options:
A. `True`
B. `False`

explanation:
`False`: числа хранятся в двоичном виде, и ни $0{,}1$, ни $0{,}2$ не представимы точно,
поэтому их сумма чуть больше $0{,}3$. Сравнивайте такие числа с допуском."""),
        "en": ("Fractions in Python", """\
What does Python give for `0.1 + 0.2 == 0.3`? Choose an answer and explain it.

options:
A. `True`
B. `False`

explanation:
`False`: numbers are stored in binary, where neither $0.1$ nor $0.2$ is exact, so their sum
is a little over $0.3$. Compare such numbers with a tolerance."""),
    },
    {
        "id": "Q7",
        "yaml": """\
type: code
time_limit: 5
starter: |
  def mean(numbers):
      ...
solution: |
  def mean(numbers):
      return sum(numbers) / len(numbers)
tests:
  - test: mean([1, 2, 3]) == 2
    message: {message1}
  - test: abs(mean([0.5, 0.25]) - 0.375) < 1e-12
    message: {message2}""",
        "messages": {
            "message1": {"ru": "Среднее чисел 1, 2 и 3 равно 2.", "en": "The mean of 1, 2 and 3 is 2."},
            "message2": {"ru": "Среднее чисел 0,5 и 0,25 равно 0,375.", "en": "The mean of 0.5 and 0.25 is 0.375."},
        },
        "ru": ("Среднее в коде", """\
Напишите функцию `mean(numbers)`, которая возвращает среднее арифметическое списка чисел.

explanation:
Среднее равно сумме, делённой на количество: $\\bar x = \\frac{1}{n}\\sum_{i=1}^{n} x_i$."""),
        "en": ("The mean in code", """\
Write a function `mean(numbers)` that returns the arithmetic mean of a list of numbers.

explanation:
The mean is the sum divided by the count: $\\bar x = \\frac{1}{n}\\sum_{i=1}^{n} x_i$."""),
    },
    {
        "id": "Q8",
        "yaml": """\
type: numeric
fields:
  half: {answer: 1/2, atol: 0.001}
check: |
  def check(answer):
      value = answer["fields"]["half"]["value"]
      if within(value, 0.5, 0.001, 0):
          return True
      if within(value, 50, 0.1, 0):
          return True, {percentage}
      if within(value, 2, 0.001, 0):
          return False, {upside_down}
      return False
wrong:
  - {half: "2"}
  - {half: "0.6"}""",
        "checker_messages": {
            "percentage": {"ru": "Ответ в процентах тоже засчитан.", "en": "A percentage counts too."},
            "upside_down": {"ru": "Это обратная дробь.", "en": "That is the fraction upside down."},
        },
        "ru": ("Половина", """\
Какую долю торта съел тот, кто съел 4 куска из 8? Можно ответить дробью, десятичной
дробью или в процентах.

fields:
- half: Доля торта

explanation:
$4/8 = 1/2 = 0{,}5$, то есть 50 %."""),
        "en": ("A half", """\
What share of a cake did someone eat who ate 4 of its 8 slices? A fraction, a decimal
or a percentage will do.

fields:
- half: Share of the cake

explanation:
$4/8 = 1/2 = 0.5$, that is 50%."""),
    },
]

EXERCISES: list[dict] = [
    {
        "id": "E1",
        "yaml": "label: {label}",
        "labels": {"ru": "У1", "en": "E1"},
        "ru": ("Среднее без списка", """\
Напишите функцию, которая считает среднее потока чисел, не храня их все: по одному
числу за раз. Файл `mean.py` из файлов модуля — решение вопроса [[Q7]] для сравнения.

solution:
Достаточно хранить сумму и количество: после $n$ чисел среднее равно $S_n / n$,
а $S_{n+1} = S_n + x_{n+1}$."""),
        "en": ("A mean without a list", """\
Write a function that computes the mean of a stream of numbers without keeping them all,
one number at a time. The module files' `mean.py` solves question [[Q7]], for comparison.

solution:
Keeping the sum and the count is enough: after $n$ numbers the mean is $S_n / n$,
and $S_{n+1} = S_n + x_{n+1}$."""),
    },
]


def flow(values: dict[str, str], languages: list[str]) -> str:
    """A YAML flow mapping with one text per language, {ru: "…", en: "…"}; a plain string in one language."""
    if len(languages) == 1:
        return json.dumps(values[languages[0]], ensure_ascii=False)
    return "{" + ", ".join(f"{lang}: {json.dumps(values[lang], ensure_ascii=False)}" for lang in languages) + "}"


def python_texts(values: dict[str, str], languages: list[str]) -> str:
    """A checker's message as Python: a dict per language, {"ru": "…", "en": "…"}; a string in one language."""
    if len(languages) == 1:
        return json.dumps(values[languages[0]], ensure_ascii=False)
    return "{" + ", ".join(f"{json.dumps(lang)}: {json.dumps(values[lang], ensure_ascii=False)}"
                           for lang in languages) + "}"


def block(kind: str, item: dict, languages: list[str]) -> str:
    fills = {name: flow(texts, languages) for name, texts in item.get("messages", {}).items()}
    fills |= {name: python_texts(texts, languages) for name, texts in item.get("checker_messages", {}).items()}
    if "units" in item:
        fills["units"] = flow(item["units"], languages)
    if "labels" in item:
        fills["label"] = flow(item["labels"], languages)
    yaml = item["yaml"]
    for name, value in fills.items():
        yaml = yaml.replace("{" + name + "}", value)
    if len(languages) == 1:
        # A monolingual block: its title after the id, its text below its YAML.
        title, text = item[languages[0]]
        return "\n".join([f"/// {kind} | {item['id']} | {title}", yaml, "", text, "///"]) + "\n"
    parts = [f"/// {kind} | {item['id']}", yaml, ""]
    for lang in languages:
        title, text = item[lang]
        parts += [f"//// {lang} | {title}", text, "////", ""]
    parts[-1] = "///"
    return "\n".join(parts) + "\n"


def starter_files(languages: list[str]) -> dict[str, str]:
    """Path (relative to the new site's folder) → text, for a site in `languages` (the first at the root)."""
    first = languages[0]
    module = f"exercises/{COURSE_ID}/{MODULE}"
    files = {
        "mkdocs.yml": MKDOCS_YML.format(site_name=json.dumps(TEXT[first]["site_name"], ensure_ascii=False),
                                        first=first, languages=", ".join(languages)),
        ".gitignore": GITIGNORE,
        f"exercises/{COURSE_ID}/course.yml": (
            f"id: {COURSE_ID}\ntitle: {flow({lang: TEXT[lang]['course'] for lang in languages}, languages)}\n"
            "modules: 1\n"),
        f"{module}/module.yml": (
            f"number: 1\ntitle: {flow({lang: TEXT[lang]['module'] for lang in languages}, languages)}\n"),
        f"{module}/quiz.md": "\n".join(block("question", item, languages) for item in QUIZ),
        f"{module}/exercises.md": "\n".join(block("exercise", item, languages) for item in EXERCISES),
        f"{module}/files/mean.py": MEAN_PY,
        f"{module}/files/README.md": TEXT[first]["readme"],
    }
    for lang in languages:
        prefix = "" if lang == first else f"{lang}/"
        files[f"docs/{prefix}index.md"] = TEXT[lang]["home"]
    return files
