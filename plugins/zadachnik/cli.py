"""The `zadachnik` command for authors: `new` writes a starter site, `check` checks course sources as the build
does, without building: the same stages the plugin calls (reading, answer keys, Python, values, formulas), with
mkdocs.yml read as MkDocs reads it (zadachnik.config.read_site_options)."""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zadachnik import __version__
from zadachnik.starter import SUPPORTED as STARTER_LANGUAGES

if TYPE_CHECKING:
    from zadachnik.config import SiteOptions
    from zadachnik.exports.common import ModuleExport

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")
# Headings' ids and the contents change nothing the check reports.
UNUSED_EXTENSIONS = {"toc", "markdown.extensions.toc"}


class CommandError(Exception):
    """A mistake in how the command was called: one line for the author, exit status 2."""


def add_site_options(command: argparse.ArgumentParser) -> None:
    """Where a command that reads course sources finds the site's settings."""
    command.add_argument("--config", "-f", metavar="FILE", type=Path,
                         help="the site's mkdocs.yml (default: the one beside or above EXERCISES_DIR)")
    command.add_argument("--languages", metavar="CODES",
                         help="site languages, comma-separated, instead of those in mkdocs.yml")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    if arguments.command is None:
        parser.print_help()
        return 2
    try:
        return arguments.run(arguments)
    except CommandError as error:
        print(f"zadachnik {arguments.command}: {error}", file=sys.stderr)
        return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="zadachnik", description="Zadachnik for course authors: start a course site, check its sources.")
    parser.add_argument("--version", action="version", version=f"zadachnik {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    new = commands.add_parser(
        "new", help="write a starter course site", description=(
            "Write a starter site into DIR: mkdocs.yml with the plugin, a home page per language and one module "
            "using every question type. It builds with 'mkdocs build --strict' as it is. DIR must be empty or "
            "new; nothing is ever overwritten."))
    new.add_argument("directory", metavar="DIR", type=Path, help="folder of the new site (new or empty)")
    new.add_argument("--languages", metavar="CODES", default="ru,en",
                     help="site languages, comma-separated, the first at the site root (default: ru,en); the "
                     "starter is written in " + ", ".join(STARTER_LANGUAGES))
    new.set_defaults(run=run_new)

    check = commands.add_parser(
        "check", help="check course sources without building the site", description=(
            "Read and check every course source as the build does (format, answer keys, revealed answers, "
            "reference solutions and hidden tests, checkers and their 'wrong:' answers, values files, formulas), "
            "without building the site. Prints the build's file:line messages; exits with 1 on a problem in the "
            "sources, 2 on one in mkdocs.yml or the plugin's options."))
    check.add_argument("exercises", metavar="EXERCISES_DIR", type=Path, nargs="?",
                       help="the course sources (default: the exercises_dir of mkdocs.yml, or ./exercises)")
    add_site_options(check)
    check.add_argument("--no-cache", action="store_true",
                       help="read and check every module, taking none that a build or check kept")
    check.set_defaults(run=run_check)

    export = commands.add_parser(
        "export", help="write a course's questions for an LMS (Moodle XML, GIFT, QTI 2.1)", description=(
            "Write the questions of the course sources in one language as files an LMS imports, one per module: "
            "'moodle' (Moodle XML), 'gift' (GIFT text for Moodle) or 'qti' (an IMS QTI 2.1 content package, a zip, "
            "for Canvas, Blackboard, ILIAS and others); code exercises are left out, with a line for each. Or "
            "'scorm12' / 'scorm2004': a SCORM package of each module's own pages (Python, variants, hints and "
            "math included) that reports scores to the LMS, and one of the whole course when no module is named; "
            "it builds the site of mkdocs.yml to make them. The site's languages come from mkdocs.yml beside or "
            "above EXERCISES_DIR, or --config, or --languages."))
    export.add_argument("exercises", metavar="EXERCISES_DIR", type=Path, help="the course sources")
    export.add_argument("selection", metavar="COURSE[/MODULE]", nargs="?",
                        help="one course (its id), or one module of it (its folder name or number); default: all")
    export.add_argument("--format", required=True, metavar="FORMAT",
                        help="moodle, gift, qti, scorm12 or scorm2004")
    export.add_argument("--language", required=True, metavar="CODE", help="the language of the questions, e.g. ru")
    export.add_argument("--out", "-o", metavar="DIR", type=Path, default=Path("."),
                        help="folder for the files (default: the current folder)")
    export.add_argument("--pass-mark", metavar="PERCENT", type=float, default=60.0,
                        help="SCORM: the score from which a completed module is passed (default: 60)")
    add_site_options(export)
    export.set_defaults(run=run_export)

    pdf = commands.add_parser(
        "pdf", help="print the problem books of a built site as PDF files", description=(
            "Print each problem book of a built site (each module's, and a course's of several modules, in every "
            "language) as a PDF file "
            "with headless Chromium: COURSE-MODULE-LANG.pdf and COURSE-LANG.pdf. With --zip, the PDFs also go into "
            "the site's pdf/ folder and the site is zipped into FILE, as the offline copy ships them."))
    pdf.add_argument("site", metavar="SITE_DIR", type=Path, help="the built site (e.g. build/site after mkdocs build)")
    pdf.add_argument("--out", "-o", metavar="DIR", type=Path, default=Path("build/pdf"),
                     help="folder for the PDF files (default: build/pdf)")
    pdf.add_argument("--zip", metavar="FILE", type=Path,
                     help="also put the PDFs into SITE_DIR/pdf/ and zip SITE_DIR into FILE (the offline copy)")
    pdf.add_argument("--chromium", metavar="PROGRAM", help="the Chromium to print with (default: the first of "
                     "chromium, chromium-browser and google-chrome found)")
    pdf.add_argument("--paper", choices=("a4", "letter"), type=str.lower,
                     help="the paper of every book (default: each book's language's, A4 but in the US, Canada "
                          "and the other countries CLDR gives Letter)")
    pdf.set_defaults(run=run_pdf)

    book = commands.add_parser(
        "gradebook", help="turn a CSV file of learners' hand-in codes into a table of their results", description=(
            "Read a CSV file with one hand-in code per row (a form's or a spreadsheet's export: the code in any "
            "column, the row's other cells saying who handed it in; separated by commas, semicolons or tabs, in "
            "UTF-8, Windows-1251 or Windows-1252) and write one row per learner and question, separated as the file "
            "is: who, course, module, question, variant, status, score, the learner's own text and when the code "
            "was made. A row whose code is damaged is left out and named with its row number; exits with 1 then."))
    book.add_argument("codes", metavar="CODES.csv", type=Path, help="the CSV file of hand-in codes")
    book.add_argument("--out", "-o", metavar="FILE", type=Path,
                      help="the table's CSV file, UTF-8 with a byte-order mark for Excel (default: the standard "
                           "output, in UTF-8 when it is redirected)")
    book.set_defaults(run=run_gradebook)
    return parser


def language_list(text: str) -> list[str]:
    codes = [code.strip() for code in text.split(",") if code.strip()]
    if not codes:
        raise CommandError("--languages needs at least one language code, e.g. --languages ru,en")
    if len(set(codes)) != len(codes):
        raise CommandError(f"--languages names a language twice: {text}")
    return codes


# -- gradebook ---------------------------------------------------------------------------------------------------


def run_gradebook(arguments: argparse.Namespace) -> int:
    from zadachnik.exports import write_whole
    from zadachnik.exports.handin import CODE_PAGES, file_text, gradebook

    try:
        text, encoding = file_text(arguments.codes.read_bytes())
    except (OSError, ValueError) as error:
        raise CommandError(f"cannot read {arguments.codes}: {error}") from None
    # Names are all a wrong guess could spoil (a code is ASCII): the teacher is told what to do then.
    guessed = [] if encoding not in CODE_PAGES else [
        f"read as {CODE_PAGES[encoding]} text, since it is not UTF-8: if names look wrong, save it as a UTF-8 CSV "
        "file (Excel: 'CSV UTF-8')"]
    try:
        book = gradebook(text)
    except ValueError as error:
        raise CommandError(f"{arguments.codes}: {error}") from None
    if not book.codes and not book.problems:
        raise CommandError(f"{arguments.codes} holds no hand-in code (each starts with ZDK1.)")
    shown = None
    if arguments.out is None:
        shown = write_table(book.table)
    else:
        # utf-8-sig: Excel reads a CSV file as UTF-8 only after a byte-order mark (else in the system's code page).
        write_whole(arguments.out, book.table.encode("utf-8-sig"))
    for line in [*guessed, *book.notes, *book.problems]:
        print(f"{arguments.codes}: {line}", file=sys.stderr)
    if shown:
        print(f"zadachnik gradebook: {shown}", file=sys.stderr)
    print(f"zadachnik gradebook: {book.codes} code(s) read, {len(book.problems)} row(s) left out", file=sys.stderr)
    return 1 if book.problems else 0


def write_table(table: str) -> str | None:
    """Writes the table to the standard output so that no character can fail it: as UTF-8 to a file or a pipe (a
    redirect has no screen whose encoding to keep to), in the terminal's own encoding there, a character it has none
    for shown as '?'. Returns the line that tells the teacher so, or None when the table went out whole."""
    stream = sys.stdout
    if not stream.isatty() and hasattr(stream, "buffer"):
        stream.flush()
        stream.buffer.write(table.encode("utf-8"))
        stream.buffer.flush()
        return None
    encoding = stream.encoding or "utf-8"
    shown = table.encode(encoding, "replace").decode(encoding)
    stream.write(shown)
    if shown == table:
        return None
    return (f"the screen's encoding ({encoding}) has no character for some of the table's, shown as '?': write the "
            "table to a file with --out table.csv")


# -- new ---------------------------------------------------------------------------------------------------------


def run_new(arguments: argparse.Namespace) -> int:
    from zadachnik.rendering.i18n import guessed_languages
    from zadachnik.starter import SUPPORTED, starter_files

    # The starter writes the codes into mkdocs.yml itself, so 'EN' may become the 'en' it plainly means.
    by_case = {code.casefold(): code for code in SUPPORTED}
    languages = language_list(",".join(by_case.get(code.casefold(), code) for code in
                                       arguments.languages.split(",")))
    unsupported = [code for code in languages if code not in SUPPORTED]
    if unsupported:
        guesses = guessed_languages(unsupported[0], set(SUPPORTED))
        guess = f"did you mean '{guesses[0]}'? " if guesses else ""
        raise CommandError(f"no starter course in the language '{unsupported[0]}' ({guess}the starter is written in "
                           f"{', '.join(SUPPORTED)}, the languages whose page words the package ships; a site in "
                           "another language gives its page words with the plugin's 'words:' option)")
    target: Path = arguments.directory
    if target.exists() and not target.is_dir():
        raise CommandError(f"{target} is a file, not a folder: give the name of a new or empty folder")
    if target.is_dir() and any(target.iterdir()):
        raise CommandError(f"{target} is not empty, and 'new' overwrites nothing: give a new or empty folder")
    files = starter_files(languages)
    try:
        for relative, text in files.items():
            path = target / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            # "x": never replace a file, even one that appeared since the check above.
            with path.open("x", encoding="utf-8", newline="\n") as output:
                output.write(text)
    except OSError as error:
        raise CommandError(f"cannot write the starter site: {error}") from None
    print(f"A course site in {', '.join(languages)} is in {target}:")
    print(f"  cd {shlex.quote(str(target))}")
    print("  zadachnik check      # checks the sources in exercises/")
    print("  mkdocs serve         # previews the site, rebuilt on every save")
    return 0


# -- export ------------------------------------------------------------------------------------------------------


def run_export(arguments: argparse.Namespace) -> int:
    from zadachnik.core.errors import SourceErrors, sources_heading
    from zadachnik.exports import export_modules, formats
    from zadachnik.exports.scorm import VERSIONS as SCORM_VERSIONS
    from zadachnik.incremental.modules import read_and_check

    known = formats()
    if arguments.format not in known and arguments.format not in SCORM_VERSIONS:
        raise CommandError(f"unknown format '{arguments.format}': write --format "
                           f"{', '.join([*known, *SCORM_VERSIONS])}")
    if not 0 <= arguments.pass_mark <= 100:
        raise CommandError(f"--pass-mark {arguments.pass_mark:g}: a percentage from 0 to 100 (e.g. --pass-mark 60)")
    taken = file_in_the_way(arguments.out)
    if taken is not None:
        raise CommandError(f"--out {arguments.out}: {taken} is a file, not a folder: give a folder for the files (a "
                           "new one is made)")
    exercises: Path = arguments.exercises.resolve()
    if not exercises.is_dir():
        raise CommandError(f"{arguments.exercises} is not a folder of course sources: give EXERCISES_DIR")
    config_file = arguments.config
    if config_file is not None and not config_file.is_file():
        raise CommandError(f"--config {config_file}: no such file")
    if config_file is None:
        config_file = find_config(exercises.parent)
    site = read_site_config(config_file)
    base = config_file.resolve().parent if config_file is not None else Path.cwd().resolve()
    languages = language_list(arguments.languages) if arguments.languages else site.languages
    if arguments.language not in languages:
        raise CommandError(f"the courses have no '{arguments.language}' text: their languages are "
                           f"{', '.join(languages)} (write e.g. --language {languages[0]})")
    try:
        # Checked as a build checks them: an LMS grades with the key it is given.
        courses, problems = read_and_check(kept_modules(config_file, base, site, exercises, languages), exercises,
                                           languages, base, lambda path: shown(path, base))
        if problems:
            raise SourceErrors(problems)
    except SourceErrors as found:
        print(sources_heading(len(found.errors)), file=sys.stderr)
        for error in found.errors:
            print(f"  {error}", file=sys.stderr)
        return 1
    modules = modules_to_export(courses, arguments)
    if arguments.format in SCORM_VERSIONS:
        whole = [course for course in courses if arguments.selection in (None, "", course.id, course.path.name)]
        return write_scorm(arguments, config_file, modules, whole)
    try:
        written, lines = export_modules(modules, known[arguments.format], arguments.language, arguments.out,
                                        site.footnotes())
    except OSError as error:
        raise CommandError(f"cannot write the export: {error}") from None
    for line in lines:
        print(f"zadachnik export: {line}")
    for item in written:
        print(f"zadachnik export: wrote {item.path} ({exported_count(item.export)})")
    return 0


def modules_to_export(courses: list, arguments: argparse.Namespace) -> list:
    """The modules the command names (every one by default), as (course, module); a line for the author when there
    is none: an empty or wrong sources folder printed nothing and exited 0."""
    from zadachnik.exports import SelectionError, select_modules

    if not courses:
        raise CommandError(f"no course in {arguments.exercises}: a course is a folder there with its course.yml "
                           "(give the folder that holds the courses' folders)")
    try:
        modules = select_modules(courses, arguments.selection)
    except SelectionError as error:
        raise CommandError(str(error)) from None
    if not modules:
        where = (f"the course '{arguments.selection}'" if arguments.selection
                 else f"the courses of {arguments.exercises}")
        raise CommandError(f"no module in {where} yet: there is nothing to export")
    return modules


def file_in_the_way(out: Path) -> Path | None:
    """The file that `out`, or a folder above it, names: the export's folder cannot be made there."""
    for path in (out, *out.parents):
        if path.exists():
            return None if path.is_dir() else path
    return None


def write_scorm(arguments: argparse.Namespace, config_file: Path | None, modules: list, whole_courses: list) -> int:
    """A SCORM package per module, and one per course given whole, made of the pages of the site built for them."""
    from zadachnik.exports import write_whole
    from zadachnik.exports.scorm import (
        VERSIONS,
        PackageError,
        module_title,
        packaged_module,
        read_progress_manifest,
        scorm_package,
    )

    if config_file is None:
        raise CommandError("a SCORM package is made of the site's pages: give the site's mkdocs.yml with --config")
    version, lang, pass_mark = VERSIONS[arguments.format], arguments.language, arguments.pass_mark / 100
    payloads: list[tuple[Path, bytes]] = []
    with tempfile.TemporaryDirectory(prefix="zadachnik-scorm-") as work:
        site = Path(work) / "site"
        build_package_site(config_file, site)
        try:
            manifest = read_progress_manifest(site)
            packaged = {}
            for course, module in modules:
                title = module_title(module.number, module.title[lang], lang)
                packaged[(course.id, module.number)] = one = packaged_module(
                    manifest, course.id, str(module.number), lang, title)
                payloads.append((arguments.out / f"{course.id}-{module.slug}-{lang}.{version.name}.zip",
                                 scorm_package(site, version, f"{course.id}-{module.number}-{lang}",
                                               f"{course.title[lang]}: {title}", [one], lang, pass_mark)))
            for course in whole_courses:
                parts = [packaged[(course.id, module.number)] for module in course.modules
                         if (course.id, module.number) in packaged]
                if parts:
                    payloads.append((arguments.out / f"{course.id}-{lang}.{version.name}.zip",
                                     scorm_package(site, version, f"{course.id}-{lang}", course.title[lang], parts,
                                                   lang, pass_mark)))
        except PackageError as error:
            raise CommandError(str(error)) from None
    try:
        arguments.out.mkdir(parents=True, exist_ok=True)
        for path, payload in payloads:
            write_whole(path, payload)
    except OSError as error:
        raise CommandError(f"cannot write the export: {error}") from None
    for path, payload in payloads:
        print(f"zadachnik export: wrote {path} ({len(payload) / 2**20:.1f} MB)")
    return 0


def build_package_site(config_file: Path, site: Path) -> None:
    """The site of `config_file` built into `site` as a package needs it (zadachnik.config.package_site_overrides),
    by MkDocs itself, from a configuration beside mkdocs.yml that inherits it (so its relative paths hold)."""
    import yaml

    from zadachnik.config import SiteOptionsError, package_site_overrides

    try:
        overrides = package_site_overrides(config_file)
    except SiteOptionsError as error:
        raise CommandError(f"{config_file}: {error}") from None
    try:
        text = yaml.safe_dump({"INHERIT": config_file.name, **overrides}, allow_unicode=True, sort_keys=False)
    except yaml.YAMLError:
        raise CommandError(f"{config_file}: a plugin's or the theme's option holds a value a copy of mkdocs.yml "
                           "cannot carry (a YAML tag such as !relative): write it as plain text") from None
    handle, name = tempfile.mkstemp(prefix=".zadachnik-package-", suffix=".yml", dir=config_file.resolve().parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as temporary:
            temporary.write(text)
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "--config-file", name,
                               "--site-dir", str(site)], capture_output=True, text=True,
                              env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, check=False)
    finally:
        Path(name).unlink(missing_ok=True)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip() or f"mkdocs build ended with status {done.returncode}"
        raise CommandError(f"the site could not be built for the package:\n{said}")


def exported_count(export: ModuleExport) -> str:
    """'12 questions', and how many items the file holds when variants go out one item each."""
    items, questions = export.item_count(), len(export.questions)
    counted = f"{questions} question{'s' if questions != 1 else ''}"
    return counted if items == questions else f"{counted}, {items} items with their variants"


# -- pdf ---------------------------------------------------------------------------------------------------------


def run_pdf(arguments: argparse.Namespace) -> int:
    from zadachnik.rendering.i18n import PAPER_SIZES
    from zadachnik.runtime.pdf import PdfError, book_pages, find_chromium, print_books

    site: Path = arguments.site
    if not site.is_dir():
        raise CommandError(f"{site} is not a built site: build it first (mkdocs build) and give its folder")
    try:
        pages = book_pages(site)
    except PdfError as error:
        raise CommandError(str(error)) from None
    if not pages:
        raise CommandError(f"{site} has no problem book: give the folder of a site built with the zadachnik plugin")
    try:
        paper = PAPER_SIZES[arguments.paper] if arguments.paper else None
        printed = print_books(site, pages, arguments.out, find_chromium(arguments.chromium), paper)
    except PdfError as error:
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(f"cannot write the PDF files into {arguments.out}: {os_reason(error)}") from None
    for left_out in printed.left_out:
        print(f"zadachnik pdf: {left_out}")
    for path in printed.pdfs:
        print(f"zadachnik pdf: wrote {path}")
    if arguments.zip is not None:
        zip_with_pdfs(site, printed.pdfs, arguments.zip)
        print(f"zadachnik pdf: wrote {arguments.zip} with the PDFs in {site.resolve().name}/pdf/")
    return 0


def zip_with_pdfs(site: Path, pdfs: list[Path], target: Path) -> None:
    """The PDFs copied into the site's pdf/ folder and the site zipped into `target`; each step that fails says
    that the PDFs themselves are written."""
    from zadachnik.runtime.offline import zip_site
    from zadachnik.runtime.pdf import copy_into_site

    try:
        copy_into_site(pdfs, site)
    except OSError as error:
        raise CommandError(f"the PDFs are written, but cannot copy them into {site / 'pdf'}: {os_reason(error)}: "
                           "make that folder writable and run the command again") from None
    try:
        zip_site(site, target, site.resolve().name)
    except OSError as error:
        raise CommandError(f"the PDFs are written and copied into {site / 'pdf'}, but cannot write the zip {target}: "
                           f"{os_reason(error)}: give --zip a file in a folder that can be written") from None


def os_reason(error: OSError) -> str:
    """Why a file could not be written, naming the path at fault: a file where a folder is needed reads as
    'File exists' or 'Not a directory' on its own."""
    path = error.filename
    if isinstance(error, FileExistsError | NotADirectoryError) and path is not None:
        blocking = next((folder for folder in (Path(path), *Path(path).parents) if folder.is_file()), None)
        if blocking is not None:
            return f"{blocking} is a file, not a folder"
    reason = error.strerror or str(error)
    return f"{reason} ({path})" if path is not None else reason


# -- check -------------------------------------------------------------------------------------------------------


def run_check(arguments: argparse.Namespace) -> int:
    config_file = arguments.config
    if config_file is not None and not config_file.is_file():
        raise CommandError(f"--config {config_file}: no such file")
    if config_file is None:
        config_file = find_config(arguments.exercises.resolve().parent if arguments.exercises else Path.cwd())
    site = read_site_config(config_file)
    base = config_file.resolve().parent if config_file is not None else Path.cwd().resolve()
    where = shown(config_file, base) if config_file else "the defaults"
    if config_file is not None:
        from zadachnik.config import theme_problem

        # As the build refuses it (sources checked without a mkdocs.yml have no theme of the site's).
        if problem := theme_problem(site.theme_name):
            raise CommandError(f"{where}: {problem}")
    if config_file is not None and not arguments.exercises:
        from zadachnik.reading.model import sources_folder_problem

        problem = sources_folder_problem(base, site.exercises_dir, site.docs_dir)
        if problem:
            raise CommandError(f"{where}: {problem}")
    if config_file is not None and not site.uses_plugin:
        raise CommandError(f"{where} does not use the zadachnik plugin, so its build makes no course pages: add "
                           "'- zadachnik' under 'plugins:' (see the guide), or give --config another file")
    exercises = (arguments.exercises or base / site.exercises_dir).resolve()
    if not exercises.is_dir():
        raise CommandError(f"{exercises} is not a folder of course sources: give EXERCISES_DIR"
                           + ("" if config_file else ", or run in the folder of mkdocs.yml"))
    if problem := not_the_courses_folder(exercises):
        raise CommandError(problem)
    languages = language_list(arguments.languages) if arguments.languages else site.languages
    check_language_codes(languages, site, base, where, "--languages" if arguments.languages else None)
    kept = kept_modules(config_file if not arguments.no_cache else None, base, site, exercises, languages)
    problems = [*language_warnings(languages, site, bool(arguments.languages)),
                *words_problems(languages, site, base, where), *check_sources(exercises, languages, base, site, kept)]
    for heading, lines in problems:
        print(heading, file=sys.stderr)
        for line in lines:
            print(f"  {line}", file=sys.stderr)
    if problems:
        return 1
    if not any(path.is_file() for path in exercises.glob("*/course.yml")):
        print(f"zadachnik check: {shown(exercises, base)} holds no course yet (a course is a folder with "
              "course.yml: 'zadachnik new' writes one to start from)", file=sys.stderr)
        return 1
    print(f"zadachnik check: the course sources in {shown(exercises, base)} are fine ({', '.join(languages)})")
    return 0


def not_the_courses_folder(folder: Path) -> str | None:
    """A course's or a module's folder given where the folder of courses is meant: each of its folders would be
    called a course without course.yml."""
    # (the folder that would say so, what it is, the folder of courses above it); a module's files/ is its module's.
    for place, kind, courses in ((folder, "a course's", folder.parent), (folder, "a module's", folder.parent.parent),
                                 (folder.parent, "a module's", folder.parent.parent.parent)):
        if (place / ("course.yml" if kind == "a course's" else "module.yml")).is_file():
            return (f"{folder} is {kind} folder: give the folder that holds the courses, {courses} (the check "
                    "reads every course in it)")
    return None


def check_language_codes(languages: list[str], site: SiteConfig, base: Path, where: str,
                         codes_from: str | None = None) -> None:
    """The build refuses a code the theme has no pages in (plugin.check_languages), the plugin's or the theme's
    own: so does the check. `codes_from` (--languages) is where `languages` came from, if not from `where`."""
    from zadachnik.rendering.i18n import site_language_problems, site_theme_dirs

    theme_dirs = site_theme_dirs(base / site.custom_dir if site.custom_dir else None)
    for problem in site_language_problems(languages, site.theme_language, theme_dirs):
        given = codes_from if codes_from and not problem.startswith("the theme's") else where
        raise CommandError(f"{given}: {problem}")


def language_warnings(languages: list[str], site: SiteConfig, given: bool) -> Problems:
    """The build's warning for a theme language that is not the site's first (plugin.follow_site_language);
    none when --languages (`given`) checks other languages than the build's."""
    from zadachnik.rendering.i18n import theme_direction_warnings, theme_language_warnings

    warnings = [] if given else [*theme_language_warnings(site.theme_language, languages, site.languages_written),
                                 *theme_direction_warnings(site.theme_direction, languages)]
    return [(f"Zadachnik: {len(warnings)} warning{'s' if len(warnings) > 1 else ''} about the site's languages:",
             warnings)] if warnings else []


def words_problems(languages: list[str], site: SiteConfig, base: Path, where: str) -> Problems:
    """The build's warning for a language without all its page words (plugin.use_words), which stops
    `mkdocs build --strict`; a site's `words` that can't be used stop the check as they stop the build."""
    from zadachnik.rendering.i18n import Vocabulary, WordsError, load_site_words, missing_words_warnings

    try:
        missing = Vocabulary.of(languages, load_site_words(site.words, base)).missing
    except WordsError as problem:
        raise CommandError(f"{where}: {problem}") from None
    warnings = missing_words_warnings(missing)
    return [(f"Zadachnik: {len(warnings)} warning{'s' if len(warnings) > 1 else ''} about the site's page words:",
             warnings)] if warnings else []


def shown(path: Path, base: Path) -> str:
    """A path as the plugin shows it in messages: relative to the folder of mkdocs.yml where it can be."""
    try:
        return str(path.resolve().relative_to(base))
    except ValueError:
        return str(path)


def find_config(start: Path) -> Path | None:
    """The site's mkdocs.yml: in `start` (the folder holding the exercises) or the nearest folder above it."""
    for folder in (start, *start.parents):
        for name in CONFIG_NAMES:
            if (folder / name).is_file():
                return folder / name
    return None


class SiteConfig:
    """What the commands need of mkdocs.yml (zadachnik.config.SiteOptions), in the names they use."""

    def __init__(self, options: SiteOptions):
        self.exercises_dir: str = options.plugin.exercises_dir
        # The build's cache of modules, which the check takes and adds to unless the site turns it off.
        self.cache: bool = options.plugin.cache
        self.languages: list[str] = list(options.plugin.languages)
        self.course_files_max_size: int = options.plugin.course_files_max_size
        self.words: dict[str, Any] = options.plugin.words
        self.theme_language: Any = options.theme_language
        self.custom_dir: str | None = options.custom_dir
        self.extensions: list[str] = options.markdown_extensions
        self.extension_configs: dict[str, dict[str, Any]] = options.mdx_configs
        self.docs_dir: Path | None = Path(options.docs_dir) if options.docs_dir else None
        self.theme_name: Any = options.theme_name
        self.languages_written: bool = options.languages_written
        self.uses_plugin: bool = options.uses_plugin
        self.theme_direction: Any = options.theme_direction

    def footnotes(self) -> dict[str, Any] | None:
        """The options of the site's Markdown footnotes; None when its pages have none."""
        for name in self.extensions:
            if name.partition(":")[0] in ("footnotes", "markdown.extensions.footnotes"):
                return dict(self.extension_configs.get(name) or {})
        return None


def read_site_config(path: Path | None) -> SiteConfig:
    """The site's options from mkdocs.yml at `path` (none: the plugin's defaults), or its mistake in one line."""
    from zadachnik.config import SiteOptionsError, read_site_options

    try:
        return SiteConfig(read_site_options(path))
    except SiteOptionsError as error:
        raise CommandError(f"{shown(path, path.resolve().parent) if path else 'the defaults'}: {error}") from None


Problems = list[tuple[str, list[str]]]


def kept_modules(config_file: Path | None, base: Path, site: SiteConfig, exercises: Path, languages: list[str]
                 ) -> Any:
    """The modules the site's builds (and checks) kept, read and checked, in the build's own cache folder for
    that config file; none for sources without a site, or a site with `cache: false`, or sources or languages
    other than the build's (a command keeps what it reads, and would put out what the build kept)."""
    from zadachnik.incremental.modules import KeptModules
    from zadachnik.incremental.site import CACHE_DIR, cache_folder

    kept = KeptModules()
    as_built = exercises.resolve() == (base / site.exercises_dir).resolve() and languages == site.languages
    if config_file is not None and site.cache and as_built:
        kept.use_site_cache(cache_folder(base / CACHE_DIR, config_file.resolve()), base)
    return kept


def check_sources(exercises: Path, languages: list[str], base: Path, site: SiteConfig, kept: Any = None
                  ) -> Problems:
    """Every problem the build would stop at in these sources, grouped under the build's own headings. With
    `kept` (incremental.modules.KeptModules), a module unchanged since a build or check kept it is taken as it was
    read and checked then, and the modules read afresh are kept once they pass."""
    from zadachnik.core.errors import SourceErrors, sources_heading, warnings_heading
    from zadachnik.incremental.modules import KeptModules, read_and_check
    from zadachnik.reading.model import source_warnings
    from zadachnik.rendering.site import Languages, course_id_problems

    def shown_here(path: Path) -> str:
        return shown(path, base)

    try:
        courses, key_problems = read_and_check(kept or KeptModules(), exercises, languages, base, shown_here)
    except SourceErrors as found:
        return [(sources_heading(len(found.errors)), [str(error) for error in found.errors])]
    problems: Problems = []
    if key_problems:
        problems.append((sources_heading(len(key_problems)), [str(error) for error in key_problems]))
    unzippable, files_warnings = course_files_problems(courses, site.course_files_max_size, shown_here)
    warnings = source_warnings(courses) + files_warnings
    if warnings:
        # What the build warns of; `mkdocs build --strict` stops at it.
        problems.append((warnings_heading(len(warnings)), warnings))
    # The build stops at the first; each is a message of its own there.
    problems.extend((f"Zadachnik: {problem}", []) for problem in unzippable)
    clashes = course_id_problems(courses, Languages(languages), shown_here)
    if clashes:
        problems.append(("Zadachnik: the navigation can't tell the languages apart:",
                         [str(problem) for problem in clashes]))
    replaced = replaced_pages(courses, languages, site.docs_dir, shown_here)
    if replaced:
        problems.append(("Zadachnik: pages of the site's own where the course pages go:", replaced))
    homeless = missing_homes(languages, site.docs_dir, shown_here)
    if homeless:
        problems.append(("Zadachnik: languages without their home page:", homeless))
    problems.extend(page_problems(courses, languages, base, site, shown_here))
    return problems


def course_files_problems(courses: list[Any], max_file_size: int, shown_here: Any) -> tuple[list[str], list[str]]:
    """What the build finds in each module's files/ as it zips them, without zipping: the folders it cannot zip,
    and its warnings."""
    from zadachnik.reading.coursefiles import cannot_zip, checked_course_files

    problems: list[str] = []
    warnings: list[str] = []
    for course in courses:
        for module in course.modules:
            if module.files_dir is None:
                continue
            try:
                warnings.extend(checked_course_files(module.files_dir, module.slug, max_file_size,
                                                     shown_here(module.files_dir))[1])
            except OSError as error:
                problems.append(cannot_zip(shown_here(module.files_dir), error))
    return problems, warnings


def replaced_pages(courses: list[Any], languages: list[str], docs_dir: Path | None, shown_here: Any) -> list[str]:
    """The build's refusal of a hand-written page at a generated page's address, from the docs folder's files."""
    from zadachnik.rendering.render import hand_written_page_problems, plan_pages
    from zadachnik.rendering.site import Languages

    if docs_dir is None:
        return []

    def hand_written(uri: str) -> Path | None:
        return docs_dir / uri if (docs_dir / uri).is_file() else None

    return hand_written_page_problems(plan_pages(courses, Languages(languages)), hand_written, shown_here)


def missing_homes(languages: list[str], docs_dir: Path | None, shown_here: Any) -> list[str]:
    """The build's warning of a language without its home page, from the docs folder's files."""
    from zadachnik.rendering.site import Languages, missing_home_pages

    if docs_dir is None:
        return []
    return missing_home_pages(Languages(languages), lambda uri: (docs_dir / uri).is_file(),
                              lambda uri: shown_here(docs_dir / uri))


def keep_only_what_finds_formulas(converter: Any) -> None:
    """Drop the inline patterns that run after the math patterns: Markdown applies inline patterns in priority
    order, so which text is a formula, or one left open, depends only on those before them (code spans and
    extensions above them), and a marker between pieces is a block, which no inline pattern changes. Links,
    emphasis and the rest were most of the conversion's time, and the check shows none of their output. References
    to footnotes are kept, for the check of which text holds each note."""
    from zadachnik.rendering.mathtex import UNCLOSED_PATTERN

    converter.inlinePatterns._sort()
    names = [item.name for item in converter.inlinePatterns._priority]  # highest priority first
    last = names.index(UNCLOSED_PATTERN)
    if "footnote" in names:
        # References to footnotes too, and what decides them (backslash escapes): a piece's notes are its own.
        last = max(last, names.index("footnote"))
    for name in names[last + 1:]:
        converter.inlinePatterns.deregister(name)


def page_problems(courses: list[Any], languages: list[str], base: Path, site: SiteConfig, shown_here: Any) -> Problems:
    """Render each generated page's Markdown with the site's extensions, as MkDocs would: formulas KaTeX refuses
    and author text that swallows the rest of the page, at their file:line."""
    import markdown

    from zadachnik.core.errors import TEX_HEADING, TEX_HINT, tex_problem
    from zadachnik.incremental.formulas import formula_store
    from zadachnik.incremental.site import CACHE_DIR
    from zadachnik.rendering.footnotes import PieceFootnotes
    from zadachnik.rendering.mathtex import (
        KatexUnavailable,
        MathExtension,
        MathLog,
        formulas_in,
        line_of,
        shared_katex,
    )
    from zadachnik.rendering.render import (
        KINDS,
        MissingPiece,
        module_has,
        notes_in_a_line,
        plan_page,
        split_pieces,
        stray_reference,
    )

    plans = [plan_page(course, module, kind, lang) for course in courses for module in course.modules
             for kind in KINDS if module_has(module, kind) for lang in languages]
    katex = shared_katex()
    # Formulas earlier builds rendered; the cache is only read: it keeps what the last build used.
    katex.use_disk_cache(formula_store(katex, base / CACHE_DIR))
    math_log = MathLog()
    try:
        extensions = [name for name in site.extensions if name not in UNUSED_EXTENSIONS]
        footnotes = PieceFootnotes()
        converter = markdown.Markdown(extensions=[*extensions, MathExtension(log=math_log), footnotes],
                                      extension_configs={name: settings for name, settings in
                                                         site.extension_configs.items() if name in extensions})
    except Exception as error:  # noqa: BLE001 - a site's extension that cannot load is the config's problem
        raise CommandError(f"cannot load the site's Markdown extensions: {error}") from None
    keep_only_what_finds_formulas(converter)
    math_lines: list[str] = []
    unclosed: list[str] = []
    stray: list[str] = []
    notes_in_lines: list[str] = []
    try:
        # Rendered here, in batches: the pool of processes the build renders in while MkDocs makes pages costs
        # more to start than it saves when converting the pages is all there is to overlap with.
        katex.prefetch([formula for plan in plans for piece in plan.pieces for formula in formulas_in(piece.markdown)],
                       workers=0)
        for plan in plans:
            math_log.errors.clear()
            page_html = converter.reset().convert(plan.markdown().split("\n---\n", 1)[1])
            for error in math_log.errors:
                line = line_of([(fragment.markdown, fragment.line) for fragment in plan.pieces], error)
                math_lines.append(tex_problem(f"{shown_here(plan.source)}:{line or 1}", error.tex, error))
            stray.extend(stray_reference(plan, found, shown_here) for found in footnotes.problems)
            try:
                pieces = split_pieces(plan, page_html)
            except MissingPiece as missing:
                unclosed.append(f"{shown_here(plan.source)}:{missing.fragment.line}: {missing}")
                continue
            if (in_a_line := notes_in_a_line(plan, pieces)) is not None:
                notes_in_lines.append(f"{shown_here(plan.source)}:{in_a_line.fragment.line}: {in_a_line}")
    except KatexUnavailable as error:
        # An installed package without its KaTeX: the build says the same in one line.
        raise CommandError(str(error)) from None
    finally:
        katex.close()
    problems: Problems = []
    if math_lines:
        problems.append((TEX_HEADING, [*dict.fromkeys(math_lines), TEX_HINT]))
    if unclosed:
        problems.append(("Zadachnik: author text that is not closed swallows the rest of its page:",
                         list(dict.fromkeys(unclosed))))
    if stray:
        problems.append(("Zadachnik: references to footnotes that another text holds:", list(dict.fromkeys(stray))))
    if notes_in_lines:
        problems.append(("Zadachnik: footnotes' notes in texts shown as one line:",
                         list(dict.fromkeys(notes_in_lines))))
    return problems
