"""The words of the page furniture, and numbers written the way each language writes them."""

from __future__ import annotations

from zadachnik.core.formatting import format_number
from zadachnik.core.numbers import MAX_LENGTH

STRINGS: dict[str, dict[str, str]] = {
    "ru": {
        "language_name": "Русский",
        "module": "Модуль {number}. {title}",
        "quiz": "Тест",
        "exercises": "Упражнения",
        "quiz_instruction": (
            "Выберите или впишите ответ и нажмите «Проверить». Числа можно вводить с точкой или запятой, "
            "а также простой дробью, например 16/7. Ответы и черновики хранятся в этом браузере и общие "
            "для русской и английской версий страницы."
        ),
        "exercises_instruction": (
            "Сначала решите упражнение сами, затем откройте решение. Раскрытые решения и заметки хранятся "
            "в этом браузере и общие для русской и английской версий."
        ),
        "progress": "Проверено: {checked} / {total} · Верно: {correct}",
        "question": "Вопрос",
        "check": "Проверить",
        "reveal": "Ответ и разбор",
        "correct_answer": "Правильный ответ",
        "correct_pairs": "Правильное соответствие",
        "single_legend": "Один правильный вариант",
        "multiple_legend": "Один или несколько правильных вариантов",
        "matching_legend": "Сопоставьте каждый пункт с вариантом",
        "matching_choose": "— выберите —",
        "atol": "абсолютный допуск ±{value}",
        "rtol": "относительный допуск ±{value} %",
        "exact": "точный ответ",
        "notes_label": "Ваш ответ или заметки",
        "explanation_label": "Ваше объяснение",
        "exercise_notes_label": "Ваши заметки и решение",
        "open_note": "Этот вопрос не проверяется автоматически: сравните свои заметки с авторским разбором.",
        "mixed_note": (
            "Автоматически проверяется только первая часть (выбор или число). Объяснение сверьте "
            "с авторским разбором."
        ),
        "show_solution": "Показать ответ и решение",
        "criteria": "Демо и критерии проекта",
        "project": "проект",
        "notebook": "Ноутбук {file}, раздел «{section}»",
        "home_modules": "Модули",
        "download_files": "Скачать файлы курса (.zip)",
        "files_about": "В архиве {contents}; структура папок сохранена.",
        "files_about_languages": "В архиве {contents} на русском и английском; структура папок сохранена.",
        "kilobytes": "КБ",
        "reset": "Сбросить страницу",
        "run": "Запустить",
        "reset_code": "Вернуть исходный код",
        "code_label": "Ваш код на Python",
        "show_code_solution": "Показать решение",
        "output": "Вывод",
        "export": "Сохранить прогресс в файл",
        "import": "Загрузить прогресс из файла",
    },
    "en": {
        "language_name": "English",
        "module": "Module {number}. {title}",
        "quiz": "Quiz",
        "exercises": "Exercises",
        "quiz_instruction": (
            "Pick or type an answer and press Check. Numbers may use a decimal point or a comma, or be a simple "
            "fraction such as 16/7. Answers and drafts stay in this browser and are shared by the Russian and "
            "English versions of the page."
        ),
        "exercises_instruction": (
            "Try each exercise on your own first, then open its solution. Opened solutions and notes stay in this "
            "browser and are shared by the Russian and English versions."
        ),
        "progress": "Checked {checked} / {total} · Correct {correct}",
        "question": "Question",
        "check": "Check",
        "reveal": "Answer and explanation",
        "correct_answer": "Correct answer",
        "correct_pairs": "Correct matching",
        "single_legend": "One correct option",
        "multiple_legend": "One or more correct options",
        "matching_legend": "Match each item with an option",
        "matching_choose": "— choose —",
        "atol": "absolute tolerance ±{value}",
        "rtol": "relative tolerance ±{value}%",
        "exact": "exact answer",
        "notes_label": "Your answer or notes",
        "explanation_label": "Your explanation",
        "exercise_notes_label": "Your notes and working",
        "open_note": "This question is not checked automatically: compare your notes with the author's solution.",
        "mixed_note": (
            "Only the first part (the choice or the number) is checked automatically. Compare your explanation "
            "with the author's."
        ),
        "show_solution": "Show answer and solution",
        "criteria": "Demo and project criteria",
        "project": "project",
        "notebook": "Notebook {file}, section “{section}”",
        "home_modules": "Modules",
        "download_files": "Download course files (.zip)",
        "files_about": "The archive holds {contents}, with its folders kept.",
        "files_about_languages": "The archive holds {contents} in Russian and English, with its folders kept.",
        "kilobytes": "KB",
        "reset": "Reset this page",
        "run": "Run",
        "reset_code": "Reset to the starter",
        "code_label": "Your Python code",
        "show_code_solution": "Show solution",
        "output": "Output",
        "export": "Export progress",
        "import": "Import progress",
    },
}
# What the browser says; sent to the page as JSON so the wording lives in one place.
RUNTIME: dict[str, dict[str, str]] = {
    "ru": {
        "decimal_point": ",",
        "correct": "✓ Верно",
        "wrong": "✗ Неверно",
        "partial": "◐ Частично верно: {percent} %",
        "unanswered": "Выберите ответ.",
        "unanswered_items": "Выберите вариант для пунктов: {items}.",
        "unreadable": "Не удалось прочитать ответ: см. сообщения у полей.",
        "wrong_items": "✗ Неверно сопоставлены пункты: {items}.",
        "field_correct": "✓ верно",
        "field_wrong": "✗ неверно",
        "item_correct": "✓",
        "item_wrong": "✗ неверно",
        "item_missing": "не выбрано",
        "read_as": "прочитано как {value}",
        "empty": "Поле пустое.",
        "separators": "«{text}»: используйте один десятичный разделитель — точку или запятую.",
        "unreadable_number": "«{text}» не читается как число. Подойдут, например: 3,14; 16/7; 2,12e12; 2,12·10^12.",
        "zero_division": "«{text}»: деление на ноль.",
        "too_large": "«{text}»: слишком большое число.",
        "too_long": (
            f"«{{text}}»: слишком длинная запись — в поле помещается не больше {MAX_LENGTH:,} символов."
        ).replace(",", "\u00a0"),
        "precision": "Ответ введён слишком грубо для этого допуска: нужно не меньше {digits}.",
        "decimals": "{count} знаков после запятой",
        "decimals_one": "{count} знака после запятой",
        "significant": "{count} значащих цифр",
        "significant_one": "{count} значащей цифры",
        "storage_unavailable": (
            "Прогресс не удаётся сохранить в этом браузере (хранилище недоступно или переполнено): "
            "новые ответы останутся только до закрытия страницы. Чтобы не потерять их, сохраните прогресс в файл."
        ),
        "storage_corrupt": (
            "Часть сохранённого прогресса повреждена и отложена (в файл прогресса она всё равно попадёт); "
            "остальное на месте."
        ),
        "reset_confirm": "Стереть все ответы, черновики и отметки на этой странице?",
        "imported": "Загружено записей: {imported}. Оставлено более новых из этого браузера: {kept}.",
        "import_invalid": "Этот файл не похож на файл прогресса Задачника: ничего не изменено.",
        "imported_unsaved": (
            "Загружено записей: {imported}, но только до закрытия страницы: в хранилище браузера нет места. "
            "Оставлено более новых из этого браузера: {kept}."
        ),
        "import_bad_key": "Файл не загружен, ничего не изменено: «{key}» — не ключ записи Задачника.",
        "import_bad_field": "Файл не загружен, ничего не изменено: в записи {key} поле {field} должно быть {expected}.",
        "import_bad_value": "Файл не загружен, ничего не изменено: запись {key} должна быть {expected}.",
        "expected_object": "объектом {…}",
        "expected_text": "строкой в кавычках",
        "expected_number": "числом",
        "expected_boolean": "значением true или false",
        "expected_texts": "списком строк […]",
        "expected_numbers": "списком чисел […]",
        "expected_list": "списком […]",
        "expected_status": "названием статуса, например \"correct\"",
        "expected_text_map": "объектом со строковыми значениями {…}",
        "checking": "Проверяем…",
        "running": "Выполняем…",
        "stopped_after": (
            "Остановлено через {seconds} с: код работал дольше лимита. Проверьте, нет ли бесконечного цикла."
        ),
        "output_truncated": "… вывод обрезан: код напечатал больше, чем показывает страница.",
        "no_output": "(код ничего не вывел)",
        "error_line": " (строка {line} вашего кода)",
        "python_starting": "Python запускается в браузере…",
        "python_ready": "Python готов.",
        "python_error": "Проверка не удалась: {text}",
        "python_unavailable_files": "Python здесь недоступен: не загрузились его файлы.",
        "python_unavailable_no_wasm": "Python здесь недоступен: этот браузер не поддерживает WebAssembly.",
        "python_unavailable_crashed": "Python здесь недоступен: он аварийно остановился при запуске.",
        "python_unavailable_slow": "Python здесь недоступен: он не запустился за 5 минут.",
        "python_retry": "Попробовать снова",
        "test_timed_out": "✗ Неверно: тест {number} не уложился в {seconds} с.",
        "test_line_timed_out": "{message} (тест не уложился в {seconds} с)",
        "checker_timeout": "Проверка не уложилась в {seconds} с, и ответ остался непроверенным.",
        "error_exit": "Программа завершилась с кодом выхода {status}, поэтому дальше ничего не выполнялось.",
        "error_no_input": (
            "Код ждёт ввода, но в этом упражнении ввода нет: значения передаются аргументами функции."
        ),
        "error_bad_verdict": "проверяющая функция вопроса вернула {returned} вместо вердикта.",
        "error_crashed": "Python аварийно остановился на этом коде и запущен заново.",
    },
    "en": {
        "decimal_point": ".",
        "correct": "✓ Correct",
        "wrong": "✗ Wrong",
        "partial": "◐ Partly correct: {percent}%",
        "unanswered": "Choose an answer first.",
        "unanswered_items": "Choose an option for items: {items}.",
        "unreadable": "Could not read the answer: see the messages by the fields.",
        "wrong_items": "✗ Wrongly matched items: {items}.",
        "field_correct": "✓ correct",
        "field_wrong": "✗ wrong",
        "item_correct": "✓",
        "item_wrong": "✗ wrong",
        "item_missing": "not chosen",
        "read_as": "read as {value}",
        "empty": "The field is empty.",
        "separators": "“{text}”: use one decimal separator, a point or a comma.",
        "unreadable_number": "“{text}” does not read as a number. These do: 3.14, 16/7, 2.12e12, 2.12·10^12.",
        "zero_division": "“{text}”: division by zero.",
        "too_large": "“{text}”: the number is too large.",
        "too_long": f"“{{text}}”: too long — a field takes at most {MAX_LENGTH:,} characters.",
        "precision": "The answer was typed too coarsely for this tolerance: give at least {digits}.",
        "decimals": "{count} decimal places",
        "decimals_one": "{count} decimal place",
        "significant": "{count} significant digits",
        "significant_one": "{count} significant digit",
        "storage_unavailable": (
            "Progress can't be saved in this browser (storage is unavailable or full): new answers last only "
            "until the page is closed. Export your progress to keep them."
        ),
        "storage_corrupt": (
            "Some saved progress was damaged and has been set aside (an export still includes it); the rest is "
            "in place."
        ),
        "reset_confirm": "Erase every answer, draft and opened reveal on this page?",
        "imported": "Imported entries: {imported}. Newer ones kept from this browser: {kept}.",
        "import_invalid": "This file is not a Zadachnik progress file: nothing was changed.",
        "imported_unsaved": (
            "Imported entries: {imported}, but only until the page is closed: this browser's storage is full. "
            "Newer ones kept from this browser: {kept}."
        ),
        "import_bad_key": "The file was not imported and nothing was changed: “{key}” is not a Zadachnik entry's key.",
        "import_bad_field": (
            "The file was not imported and nothing was changed: in the entry {key}, {field} should be {expected}."
        ),
        "import_bad_value": "The file was not imported and nothing was changed: the entry {key} should be {expected}.",
        "expected_object": "an object {…}",
        "expected_text": "a string in quotes",
        "expected_number": "a number",
        "expected_boolean": "true or false",
        "expected_texts": "a list of strings […]",
        "expected_numbers": "a list of numbers […]",
        "expected_list": "a list […]",
        "expected_status": "a status word such as \"correct\"",
        "expected_text_map": "an object of strings {…}",
        "checking": "Checking…",
        "running": "Running…",
        "stopped_after": "Stopped after {seconds} s: the code ran past its time limit. Is there an endless loop?",
        "output_truncated": "… output cut here: the code printed more than the page shows.",
        "no_output": "(the code printed nothing)",
        "error_line": " (line {line} of your code)",
        "python_starting": "Python is starting in the browser…",
        "python_ready": "Python is ready.",
        "python_error": "The check failed: {text}",
        "python_unavailable_files": "Python is not available here: its files did not load.",
        "python_unavailable_no_wasm": "Python is not available here: this browser does not run WebAssembly.",
        "python_unavailable_crashed": "Python is not available here: it crashed while starting.",
        "python_unavailable_slow": "Python is not available here: it did not start within 5 minutes.",
        "python_retry": "Try again",
        "test_timed_out": "✗ Wrong: test {number} did not finish in {seconds} s.",
        "test_line_timed_out": "{message} (the test did not finish in {seconds} s)",
        "checker_timeout": "The check ran out of time ({seconds} s), so the answer was not checked.",
        "error_exit": "The code exited (exit status {status}), so nothing after that ran.",
        "error_no_input": (
            "The code asks for input, but this exercise reads no input: values come as the function's arguments."
        ),
        "error_bad_verdict": "the question's checker returned {returned} instead of a verdict.",
        "error_crashed": "Python crashed on this code and has been started again.",
    },
}
# Each kind of course file in words: (one, few, many) for Russian, (one, many) for English.
FILE_KINDS = {
    "ru": {"notebooks": ("ноутбук", "ноутбука", "ноутбуков"),
           "code": ("модуль на Python", "модуля на Python", "модулей на Python"),
           "texts": ("текстовый файл", "текстовых файла", "текстовых файлов"),
           "data": ("файл данных", "файла данных", "файлов данных")},
    "en": {"notebooks": ("notebook", "notebooks"), "code": ("Python module", "Python modules"),
           "texts": ("text file", "text files"), "data": ("data file", "data files")},
}


def counted(count: int, forms: tuple[str, ...], lang: str) -> str:
    if lang == "ru":
        tail, tens = count % 10, count % 100
        form = forms[0] if tail == 1 and tens != 11 else forms[1] if 2 <= tail <= 4 and not 12 <= tens <= 14 \
            else forms[2]
    else:
        form = forms[0] if count == 1 else forms[1]
    return f"{count} {form}"


def files_contents(counts: dict[str, int], lang: str) -> str:
    """"4 notebooks, 2 Python modules and 1 text file" in the page's language."""
    kinds = FILE_KINDS.get(lang, FILE_KINDS["en"])
    parts = [counted(counts[kind], kinds[kind], lang) for kind in kinds if counts.get(kind)]
    joiner = " и " if lang == "ru" else " and "
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + joiner + parts[-1]


def file_size(size: int, lang: str) -> str:
    """Kilobytes of 1024 bytes with one decimal: "2588,1 КБ", "2,588.1 KB"."""
    return f"{format_number(round(size / 1024, 1), lang, 1)}\u00a0{strings(lang)['kilobytes']}"


def strings(lang: str) -> dict[str, str]:
    return STRINGS.get(lang, STRINGS["en"])


def runtime_strings(lang: str) -> dict[str, str]:
    return RUNTIME.get(lang, RUNTIME["en"])
