"""Compiled page templates kept between builds. MkDocs makes a new Jinja environment for every build, which parses
and compiles each of the theme's templates again (mkdocs-material's: a third of a small site's build, a tenth of a
large one's). A template's compiled code is kept under a key that holds everything the code is made of: the
template's name, file and text, and what Jinja reads of its environment while compiling (its version and Python's,
the syntax settings, the extensions, the filters and tests with how they are called, `finalize`, autoescaping). A
build that takes it therefore runs the code a fresh compile would give, and writes the same pages.

Kept in memory for the process (every build of `mkdocs serve`, or of a test run), and with the build cache on, on
disk too (a BlobFolder: a damaged file reads as missing, and the template is compiled again). On disk the key also
holds the code that makes the site (`SiteCache.code`): a plugin's filter may change what the compiler folds into
constants without changing its name.

Compiled code is code: unlike every other entry of the cache, which is read back as data only, it runs. So each
file on disk is signed (HMAC-SHA256) with a key made once per user in their own cache folder, outside the site's:
a `.cache/` from elsewhere (restored by a CI job from a cache other branches write, or copied with the site) has
its templates compiled again, never run.
"""

from __future__ import annotations

import hashlib
import hmac
import marshal
import os
import secrets
import sys
import types
from pathlib import Path
from typing import Any

import jinja2
import platformdirs
from jinja2.bccache import Bucket

from zadachnik.incremental.blobs import BlobFolder, open_regular
from zadachnik.incremental.pages import digest

# Compiled code by key, for the process.
_COMPILED: dict[str, types.CodeType] = {}
KEY_FILE = "template-signing-key"
KEY_BYTES = 32
SIGNATURE_BYTES = hashlib.sha256().digest_size


class CompiledTemplates(jinja2.BytecodeCache):
    """A Jinja bytecode cache (set as `environment.bytecode_cache`) over the process's memory and `store`."""

    def __init__(self, store: BlobFolder | None = None, code: str = "", key: bytes | None = None) -> None:
        # Without a key to sign with, nothing goes to disk.
        self.store = store if key is not None else None
        self.code = code
        self.key = key or b""
        # The keys this build looked up or wrote: the store keeps these (`keep_only`).
        self.used: set[str] = set()

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        key = template_key(environment, name, filename, source)
        bucket = Bucket(environment, key, "")
        self.used.add(key)
        code = _COMPILED.get(key)
        if code is None and self.store is not None:
            code = code_of(self.verified(key, self.store.get_bytes(self.disk_key(key))))
        if code is not None:
            _COMPILED[key] = bucket.code = code
        return bucket

    def set_bucket(self, bucket: Bucket) -> None:
        if bucket.code is None:
            return
        _COMPILED[bucket.key] = bucket.code
        if self.store is not None:
            try:
                payload = marshal.dumps(bucket.code)
                self.store.put_bytes(self.disk_key(bucket.key), self.signature(bucket.key, payload) + payload)
            except (OSError, ValueError):
                pass  # compiled again by the next build

    def signature(self, key: str, payload: bytes) -> bytes:
        return hmac.new(self.key, key.encode() + b"\0" + payload, hashlib.sha256).digest()

    def verified(self, key: str, stored: bytes | None) -> bytes | None:
        """The compiled code's bytes, if this user's key signed them for this key."""
        if stored is None or len(stored) < SIGNATURE_BYTES:
            return None
        signature, payload = stored[:SIGNATURE_BYTES], stored[SIGNATURE_BYTES:]
        return payload if hmac.compare_digest(signature, self.signature(key, payload)) else None

    def disk_key(self, key: str) -> str:
        return digest(self.code, key)

    def keep_only_used(self) -> None:
        if self.store is not None:
            self.store.keep_only({self.disk_key(key) for key in self.used})


def signing_key(folder: Path | None = None) -> bytes | None:
    """This user's key for compiled templates, made on first use in their cache folder (readable by them alone);
    None where there is no such folder to write (the templates are then kept in memory only)."""
    folder = folder if folder is not None else Path(platformdirs.user_cache_dir("zadachnik"))
    if not folder.is_absolute():
        return None  # no home to resolve `~` by: a key under the site's folder would travel with a copy of it
    path = folder / KEY_FILE
    key = _read_key(path)
    if key is not None:
        return key
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(handle, "wb") as output:
            output.write(secrets.token_bytes(KEY_BYTES))
        os.replace(temporary, path)
    except OSError:
        return None
    # Two builds making a key at once: both use the one that stayed.
    return _read_key(path)


def _read_key(path: Path) -> bytes | None:
    try:
        with open_regular(path) as stored:
            key = stored.read(KEY_BYTES + 1)
    except OSError:
        return None
    return key if len(key) == KEY_BYTES else None


def code_of(payload: bytes | None) -> types.CodeType | None:
    """The compiled code `set_bucket` stored, or None for bytes that are not one code object."""
    if payload is None:
        return None
    try:
        code = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, types.CodeType) else None


def template_key(environment: jinja2.Environment, name: str, filename: str | None, source: str) -> str:
    escaping = environment.autoescape(name) if callable(environment.autoescape) else environment.autoescape
    return digest(environment_key(environment), name, filename or "", repr(escaping), source)


def environment_key(environment: jinja2.Environment) -> str:
    """What the compiler reads of the environment, as text the same in every process for the same settings."""
    settings: list[Any] = [
        jinja2.__version__, sys.implementation.cache_tag, sys.version,
        environment.block_start_string, environment.block_end_string, environment.variable_start_string,
        environment.variable_end_string, environment.comment_start_string, environment.comment_end_string,
        environment.line_statement_prefix, environment.line_comment_prefix, environment.trim_blocks,
        environment.lstrip_blocks, environment.newline_sequence, environment.keep_trailing_newline,
        environment.optimized, environment.is_async, getattr(environment, "newstyle_gettext", None),
        callable_key(environment.finalize),
        sorted(callable_key(type(extension)) for extension in environment.extensions.values()),
        sorted((name, callable_key(function)) for name, function in environment.filters.items()),
        sorted((name, callable_key(function)) for name, function in environment.tests.items()),
    ]
    return repr(settings)


def callable_key(value: Any) -> str:
    """A filter, test, extension or `finalize`: by its qualified name and how Jinja passes it the context (both read
    while compiling), and by its code, since the optimizer may call it on constants (a hook edited under `mkdocs
    serve` gives a function of the same name). One without a name of its own (a lambda, a closure, whose captured
    values its code does not show) is known by its identity too: its templates are taken in this process only."""
    if value is None:
        return "None"
    module, name = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    passed = getattr(value, "jinja_pass_arg", None)
    unnamed = not isinstance(name, str) or "<" in name
    return f"{module}.{name}:{passed}:{code_digest(value)}:{id(value) if unnamed else ''}"


# Each function's code digest, with the function, so that no other object takes its identity meanwhile.
_CODE_DIGESTS: dict[int, tuple[Any, str]] = {}


def code_digest(value: Any) -> str:
    known = _CODE_DIGESTS.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    code = getattr(value, "__code__", None)
    digest = hashlib.sha256(code_text(code).encode()).hexdigest() if isinstance(code, types.CodeType) else ""
    _CODE_DIGESTS[id(value)] = (value, digest)
    return digest


def code_text(code: types.CodeType) -> str:
    """A function's code as text the same in every process (marshal's bytes depend on reference counts, and a set's
    order on the process's string hashing)."""
    constants = [constant_text(constant) for constant in code.co_consts]
    return repr((code.co_code, code.co_names, code.co_varnames, code.co_freevars, constants))


def constant_text(constant: Any) -> str:
    if isinstance(constant, types.CodeType):
        return code_text(constant)
    if isinstance(constant, tuple):
        return "(" + ",".join(constant_text(item) for item in constant) + ")"
    if isinstance(constant, frozenset):
        return "frozenset(" + ",".join(sorted(constant_text(item) for item in constant)) + ")"
    return repr(constant)
