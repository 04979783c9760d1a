"""The build's Python runner process (never shipped to the browser): how it starts apart from the build, its loop
over two pipes, the audit hook that keeps the code it runs to the temp folder and to its own processes, and how
it ends what that code started.

`python -m zadachnik.python.serve REQUESTS REPLIES SETTINGS` is the keeper, the build's child: it forks the
runner and waits for it, so the runner's parent is never the build, and it ends as the runner ended (the build
reports how). SETTINGS is JSON: the isolation ("namespaces" or "plain"), the folders the code may write in, and
the installation's folders, which it may not write in even there.

With "namespaces" (Linux) the keeper first makes user, mount and PID namespaces of its own. Its child is process
1 of the new PID namespace: the build has no pid there to signal and no /proc entry to read; every file system
is read-only but the writable folders; and the runner, process 2, keeps no capabilities. A system that does not
permit that gets UNAVAILABLE as the keeper's exit status before any code runs, and the build starts a "plain"
keeper instead. There the runner confines itself (`confine`) by what the kernel permits it, which holds for the
programs the code starts too: Landlock (only the writable folders are writable; from Linux 6.12 on, no signal
reaches a process outside), and, when the build runs as root, the user nobody (reading what the build reads, by
one capability; no signal to the build, no look at its /proc files). The build makes itself not dumpable, so its
/proc files (environ, mem) are not for other processes of its own user either. Whatever the kernel does not hold,
the audit hook refuses: then the code may not start programs or load C libraries (Python's own open, os.kill and
the like it checks anyway; ctypes and programs pass it).
"""

from __future__ import annotations

import _thread
import ctypes
import errno
import io
import os
import re
import signal
import sys
from collections.abc import Mapping
from pathlib import Path
from time import monotonic as _monotonic
from time import sleep as _sleep
from types import MappingProxyType
from typing import Any, NamedTuple, NoReturn

from zadachnik.python import pyrunner, values_files
from zadachnik.python.pyrunner import (
    _REAL_EXIT,
    Clock,
    Snapshot,
    TimeLimit,
    _BaseException,
    _int,
    _isinstance,
    _json_dumps,
    _json_loads,
    _text_of,
    _type,
    handle,
    time_is_up,
)

# The keeper's exit status when the system does not permit the namespaces (the build then starts a plain one).
UNAVAILABLE = 75
# Address space for the runner: far beyond what an exercise needs, well short of taking the machine's memory.
MEMORY_LIMIT = 2 * 1024**3

# -- the keeper and, with namespaces, process 1 -------------------------------------------------------------

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x10000000, 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 0x1000, 0x4000, 1 << 18
MOUNT_ATTR_RDONLY, AT_FDCWD, AT_RECURSIVE, SYS_MOUNT_SETATTR = 1, -100, 0x8000, 442
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 1, 24, 38, 47, 4
PR_SET_CHILD_SUBREAPER, PR_SET_DUMPABLE, PR_SET_KEEPCAPS, PR_CAP_AMBIENT_RAISE = 36, 4, 8, 2
LINUX_CAPABILITY_VERSION_3 = 0x20080522
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_SETGID, CAP_SETUID, CAP_SETPCAP, CAP_SYS_PTRACE = 1, 2, 6, 7, 8, 19
# The user the code runs as, without namespaces, when the build runs as root.
NOBODY = 65534
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION, LANDLOCK_RULE_PATH_BENEATH, LANDLOCK_SCOPE_SIGNAL = 1, 1, 2
# Landlock's rights that change the file system (write, remove, make each kind of file; then, from its versions
# 2 and 3 on, move across folders and truncate), and those of them a rule for a single file may give.
LANDLOCK_WRITES = (1 << 1) | (1 << 4) | (1 << 5) | sum(1 << bit for bit in range(6, 13))
LANDLOCK_REFER, LANDLOCK_TRUNCATE = 1 << 13, 1 << 14
LANDLOCK_FILE_WRITES = (1 << 1) | LANDLOCK_TRUNCATE


class LandlockRuleset(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class LandlockPathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class MountAttributes(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64), ("propagation", ctypes.c_uint64),
                ("userns_fd", ctypes.c_uint64)]


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def main(argv: list[str]) -> NoReturn:
    requests_fd, replies_fd, settings = _int(argv[1]), _int(argv[2]), _json_loads(argv[3])
    isolated = settings["isolation"] == "namespaces"
    if isolated:
        try:
            enter_namespaces()
        except (OSError, AttributeError):
            os._exit(UNAVAILABLE)
    child = os.fork()
    if child == 0:
        _in_child(lambda: be_process_one(requests_fd, replies_fd, settings) if isolated
                  else be_runner(requests_fd, replies_fd, settings, keeper=os.getppid()))
    # Only the runner holds the pipes: when it dies, the build reads the end of its replies at once.
    os.close(requests_fd)
    os.close(replies_fd)
    _pid, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    if isolated and code > 128:
        code = 128 - code  # process 1's way of saying its runner died of signal (code - 128)
    if code < 0:
        die_of(-code)
    os._exit(code)


def _in_child(body: Any) -> NoReturn:
    """A forked process never returns into its parent's code, whatever happens."""
    status = 1
    try:
        body()
        status = 0
    finally:
        os._exit(status)


def die_of(number: int) -> NoReturn:
    """End by the signal the runner ended by, so the build can say which (and no core file is left)."""
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(number, signal.SIG_DFL)
    except (OSError, ValueError):
        pass  # SIGKILL and SIGSTOP keep their default anyway
    os.kill(os.getpid(), number)
    os._exit(128 + number)


def enter_namespaces() -> None:
    """New user, mount and PID namespaces (the PID one for the keeper's children), as the same user."""
    user, group = os.geteuid(), os.getegid()
    _check(_libc().unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID), "unshare")
    Path("/proc/self/setgroups").write_text("deny")
    Path("/proc/self/uid_map").write_text(f"{user} {user} 1")
    Path("/proc/self/gid_map").write_text(f"{group} {group} 1")


def be_process_one(requests_fd: int, replies_fd: int, settings: dict[str, Any]) -> NoReturn:
    """Process 1 of the runner's PID namespace: it makes the mounts, starts the runner, collects every orphan, and
    ends when the runner ends (taking the namespace's other processes with it), with an exit status that says how."""
    os.setsid()
    try:
        make_mounts(settings["writable"], settings["protected"])
    except (OSError, AttributeError):
        os._exit(UNAVAILABLE)
    runner = os.fork()
    if runner == 0:
        _in_child(lambda: be_runner(requests_fd, replies_fd, settings, keeper=0))
    os.close(requests_fd)
    os.close(replies_fd)
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == runner:
            code = os.waitstatus_to_exitcode(status)
            # Process 1 cannot die of a signal of its own: the keeper turns 128 + n back into signal n.
            os._exit(128 - code if code < 0 else code)


def make_mounts(writable: list[str], protected: list[str]) -> None:
    """The namespace's /proc, and every file system read-only but the writable folders (the installation's
    folders inside them read-only again)."""
    libc = _libc()

    def mount(source: str | None, target: str, kind: str | None, flags: int) -> None:
        _check(libc.mount(source and source.encode(), target.encode(), kind and kind.encode(), ctypes.c_ulong(flags),
                          None), f"mount {target}")

    def read_only(target: str, yes: bool) -> None:
        attributes = MountAttributes(MOUNT_ATTR_RDONLY if yes else 0, 0 if yes else MOUNT_ATTR_RDONLY, 0, 0)
        _check(libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, target.encode(), AT_RECURSIVE, ctypes.byref(attributes),
                            ctypes.sizeof(attributes)), f"mount_setattr {target}")

    mount(None, "/", None, MS_REC | MS_PRIVATE)
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    read_only("/", True)
    for folder in writable:
        if os.path.isdir(folder):
            mount(folder, folder, None, MS_BIND | MS_REC)
            read_only(folder, False)
    for folder in protected:
        if os.path.isdir(folder) and any(inside(folder, place) for place in writable):
            mount(folder, folder, None, MS_BIND | MS_REC)
            read_only(folder, True)
    # The folder the keeper started in, as the new mounts show it (a writable folder is now a mount of its own).
    os.chdir(os.getcwd())


def drop_capabilities() -> None:
    """The runner keeps none of the capabilities its user namespace gave it (it could undo the mounts), and no
    program it starts gains any."""
    libc = _libc()
    for capability in range(64):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            break  # past the last capability this kernel knows
    _check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient capabilities")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")
    header = (ctypes.c_uint32 * 2)(LINUX_CAPABILITY_VERSION_3, 0)
    nothing = (ctypes.c_uint32 * 6)()
    _check(libc.capset(header, nothing), "capset")


def be_runner(requests_fd: int, replies_fd: int, settings: dict[str, Any], keeper: int) -> None:
    """`keeper`: the parent whose end the runner must not outlive (0 with namespaces: process 1's end ends it)."""
    os.setsid()
    if keeper:
        settings = {**settings, **confine(settings["writable"], settings.get("confinements", ()))}
        # After the change of user, which clears it.
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != keeper:
            return  # it ended already
    else:
        try:
            drop_capabilities()
        except (OSError, AttributeError):
            os._exit(UNAVAILABLE)
    serve(requests_fd, replies_fd, settings)


def confine(writable: list[str], allowed: Any) -> dict[str, Any]:
    """Without namespaces: what of `allowed` ("landlock", "nobody") the kernel permits, for the runner and all it
    starts. Says what holds ("confined", for the author) and whether the code may still start programs and load
    C libraries ("programs": only when the kernel keeps them from signalling the build and writing outside the
    writable folders; else the audit hook refuses them)."""
    confined: list[str] = []
    version = landlock_version() if "landlock" in allowed else 0
    if version:
        try:
            enter_landlock(writable, version)
            confined.append("Landlock" if version >= 6 else "Landlock (files only: this kernel keeps no signals)")
        except (OSError, AttributeError):
            version = 0
    kept = _kept_capability(version) if "nobody" in allowed else None
    if kept is not None:
        become_nobody(kept)
        confined.append("the user nobody")
    signals = version >= 6 or kept is not None
    writes = version > 0 or kept is not None
    # The build is not dumpable: only a root that may trace any process reads its /proc files (Landlock does not
    # keep them, as this kernel showed).
    proc = kept is not None or os.geteuid() != 0 or not _capabilities() >> CAP_SYS_PTRACE & 1
    if not (signals and writes and proc):
        confined.append("the audit hook, which refuses programs and C libraries")
    return {"confined": confined, "programs": signals and writes and proc}


def landlock_version() -> int:
    """The version of Landlock the kernel offers (0: none, or not permitted here, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        version = _libc().syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                                  ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(_int(version), 0)


def enter_landlock(writable: list[str], version: int) -> None:
    """A Landlock domain for the runner and all it starts: the file system changes only in the writable folders
    (and /dev/null); from version 6 on, no signal leaves the domain."""
    libc = _libc()
    handled = LANDLOCK_WRITES | (LANDLOCK_REFER if version >= 2 else 0) | (LANDLOCK_TRUNCATE if version >= 3 else 0)
    ruleset = LandlockRuleset(handled, 0, LANDLOCK_SCOPE_SIGNAL if version >= 6 else 0)
    descriptor = libc.syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(ruleset), ctypes.c_size_t(
        ctypes.sizeof(ruleset)), ctypes.c_uint32(0))
    if descriptor < 0:
        _check(-1, "landlock_create_ruleset")
    try:
        places = [(folder, handled) for folder in writable if os.path.isdir(folder)]
        for place, rights in [*places, (os.devnull, handled & LANDLOCK_FILE_WRITES)]:
            parent = os.open(place, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = LandlockPathBeneath(rights, parent)
                _check(libc.syscall(SYS_LANDLOCK_ADD_RULE, descriptor, LANDLOCK_RULE_PATH_BENEATH,
                                    ctypes.byref(rule), ctypes.c_uint32(0)), f"landlock_add_rule {place}")
            finally:
                os.close(parent)
        _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")
        _check(libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, descriptor, ctypes.c_uint32(0)), "landlock_restrict_self")
    finally:
        os.close(descriptor)


def _capabilities() -> int:
    """The runner's effective capabilities (0 where /proc does not tell)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("CapEff:"):
                return _int(line.split()[1], 16)
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _kept_capability(landlock: int) -> int | None:
    """As root, the one capability the runner keeps as nobody, so the code still reads what the build reads (a
    Python or a course in /root): reading past permissions, or else, where Landlock keeps every write (truncation
    too: version 3) to the writable folders, writing past them. None: the runner stays the build's user (not
    root, or a root that may not change user or keep either capability)."""
    if os.geteuid() != 0:
        return None
    has = _capabilities()
    if not all(has >> capability & 1 for capability in (CAP_SETUID, CAP_SETGID, CAP_SETPCAP)):
        return None
    if has >> CAP_DAC_READ_SEARCH & 1:
        return CAP_DAC_READ_SEARCH
    if landlock >= 3 and has >> CAP_DAC_OVERRIDE & 1:
        return CAP_DAC_OVERRIDE
    return None


def become_nobody(kept: int) -> None:
    """The user and group nobody, with no other groups and of root's capabilities only `kept`, which the programs
    it starts keep too (ambient). Its scratch folder (its working folder) becomes nobody's."""
    libc = _libc()
    os.chown(os.getcwd(), NOBODY, NOBODY)
    for capability in range(64):
        if capability != kept and libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            break  # past the last capability this kernel knows
    _check(libc.prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0), "keep capabilities")
    os.setgroups([])
    os.setresgid(NOBODY, NOBODY, NOBODY)
    os.setresuid(NOBODY, NOBODY, NOBODY)
    header = (ctypes.c_uint32 * 2)(LINUX_CAPABILITY_VERSION_3, 0)
    only = (ctypes.c_uint32 * 6)(1 << kept, 1 << kept, 1 << kept, 0, 0, 0)
    _check(libc.capset(header, only), "capset")
    _check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, kept, 0, 0), "ambient capability")
    _check(libc.prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0), "keep capabilities")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")


def not_dumpable() -> None:
    """The build's own process: its /proc files (environ, mem) become root's, so code run as its user cannot read
    them. Kept for the rest of the build: a process the code left behind may outlive its runner."""
    _prctl(PR_SET_DUMPABLE, 0)


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


# -- the audit hook: what the code may touch, and what it read ----------------------------------------------



class Limits(NamedTuple):
    """Where code may write, what it may never write, the runner's pid, whether /proc tells processes apart (and
    its device), and whether the code may start programs and load C libraries. Bound once the runner starts and
    never changed: the snapshot puts back the binding after every call, and a tuple has no contents a call could
    change for the calls after it."""

    writable: tuple[str, ...] = ()
    protected: tuple[str, ...] = ()
    runner: int = 0
    proc: bool = False
    proc_device: int = -1
    programs: bool = True


_limits = Limits()
# The threads inside the hook: what the hook itself opens is neither checked nor noted.
_BUSY: set[int] = set()
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
# Events that change the file system: (index of a path, index of its dir_fd or None, whether a symlink there is
# followed to what it names).
_WRITES: Mapping[str, tuple[tuple[int, int | None, bool], ...]] = MappingProxyType({
    "os.remove": ((0, 1, False),), "os.rmdir": ((0, 1, False),), "os.mkdir": ((0, 2, False),),
    "os.rename": ((0, 2, False), (1, 3, False)), "os.link": ((0, 2, True), (1, 3, False)),
    "os.symlink": ((1, 2, False),), "shutil.rmtree": ((0, 1, False),), "os.chmod": ((0, 2, True),),
    "os.chown": ((0, 3, True),), "os.utime": ((0, 3, True),), "os.truncate": ((0, None, True),),
    "os.chflags": ((0, None, True),), "os.setxattr": ((0, None, True),), "os.removexattr": ((0, None, True),)})
_SIGNALS = ("os.kill", "os.killpg")
_PROC_ENTRY = re.compile(r"/proc/(\d+)(?:/(.*))?\Z", re.DOTALL)
WRITE_REFUSED = "at build time Python code may write only in the temp folder {}"
SIGNAL_REFUSED = "at build time Python code may signal only the processes it started"
PROC_REFUSED = "at build time Python code may read only its own processes in /proc"
PROGRAMS_REFUSED = ("at build time Python code may not start programs or load C libraries here: this system gives "
                    "it no isolation from the build's user")
# What passes the audit hook's other checks: refused where the kernel does not keep it from the build (`confine`).
_PROGRAMS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "ctypes.dlopen",
             "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.call_function")

# What a call read (its code's imports included): what the call's result depends on besides its request, for the
# build's cache. Files opened ("file:…"), folders listed ("folder:…"); a None for what cannot be told (more than
# any module reads, a database, a subprocess, a library loaded by hand). Emptied in place, never rebound.
_OPENED: list[str | None] = []
MAX_FILES_OPENED = 10_000
_LISTINGS = ("os.listdir", "os.scandir")
_UNTOLD = ("sqlite3.connect", "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
           "socket.connect", "ctypes.dlopen", "urllib.Request")
_WATCHED = frozenset(("open", *_WRITES, *_LISTINGS, *_SIGNALS, *_UNTOLD, *_PROGRAMS))


def _audit(event: str, arguments: tuple[Any, ...]) -> None:
    # Called for every event (each import raises several): most are none of the hook's business.
    if event not in _WATCHED:
        return
    thread = _thread.get_ident()
    if thread in _BUSY:
        return
    _BUSY.add(thread)
    try:
        _guard(event, arguments)
    finally:
        _BUSY.discard(thread)
    _note_open(event, arguments)


def _guard(event: str, arguments: tuple[Any, ...]) -> None:
    """Refuses (PermissionError, at the code's own line) a write outside the writable folders, a signal to a process
    the runner did not start, and a look into such a process's /proc entries."""
    if event == "open" and _len_at_least(arguments, 3):
        path, mode, flags = arguments[:3]
        if _isinstance(path, int):
            return  # a descriptor already open
        if (flags & _WRITE_FLAGS) if _isinstance(flags, int) else any(sign in str(mode or "") for sign in "wax+"):
            _check_write(path, None, True)
        _check_proc(path)
    elif event in _WRITES:
        for index, dir_fd_index, follows in _WRITES[event]:
            if index < len(arguments):
                dir_fd = arguments[dir_fd_index] if dir_fd_index is not None and dir_fd_index < len(arguments) \
                    else None
                _check_write(arguments[index], dir_fd, follows)
    elif event in _LISTINGS and arguments and not _isinstance(arguments[0], int) and arguments[0] is not None:
        _check_proc(arguments[0])
    elif event in _SIGNALS and _len_at_least(arguments, 2) and _limits.proc:
        target, number = arguments[:2]
        if number != 0 and _isinstance(target, int) and not _may_signal(event, target):
            raise PermissionError(errno.EPERM, SIGNAL_REFUSED)
    if event in _PROGRAMS and not _limits.programs:
        raise PermissionError(errno.EPERM, PROGRAMS_REFUSED)


def _len_at_least(arguments: tuple[Any, ...], count: int) -> bool:
    return _isinstance(arguments, tuple) and len(arguments) >= count


def _check_write(path: Any, dir_fd: Any, follows: bool) -> None:
    place = _where(path, dir_fd, follows)
    if place is None or place == os.devnull:
        return
    limits = _limits
    if any(inside(place, folder) for folder in limits.writable) \
            and not any(inside(place, folder) for folder in limits.protected):
        return
    raise PermissionError(errno.EACCES, WRITE_REFUSED.format(limits.writable[0] if limits.writable else "(none)"),
                          _shown(path))


def _check_proc(path: Any) -> None:
    if not _limits.proc or not (_isinstance(path, (str, bytes)) or _isinstance(path, os.PathLike)):
        return
    place = os.path.abspath(os.fsdecode(path))
    entry = _PROC_ENTRY.match(place)
    if entry is None:
        # A symlink elsewhere may name a /proc entry: resolved when the file is on /proc (one stat tells; resolving
        # every path the code opens would cost far more). A path relative to a dir_fd the hook is not told of is
        # the kernel's to refuse (`confine`, namespaces).
        try:
            if os.stat(place).st_dev != _limits.proc_device:
                return
        except (OSError, ValueError):
            return
        entry = _PROC_ENTRY.match(os.path.realpath(place))
        if entry is None:
            return
    # Every process's stat stays readable: the runner reads them to find what the code started.
    if entry[2] != "stat" and not _ours(_int(entry[1])):
        raise PermissionError(errno.EACCES, PROC_REFUSED, _shown(path))


def _shown(path: Any) -> str:
    return os.fsdecode(path) if _isinstance(path, (str, bytes)) or _isinstance(path, os.PathLike) else str(path)


def _where(path: Any, dir_fd: Any, follows: bool) -> str | None:
    """The absolute place a path names (through symlinks when `follows`, else up to its last part); None when it
    cannot be told (a descriptor where no /proc tells its file)."""
    if _isinstance(path, int):
        return os.path.realpath(f"/proc/self/fd/{path}") if _limits.proc else None
    if not (_isinstance(path, (str, bytes)) or _isinstance(path, os.PathLike)):
        return None
    text = os.fsdecode(path)
    if not os.path.isabs(text) and _isinstance(dir_fd, int) and dir_fd >= 0:
        if not _limits.proc:
            return None
        text = os.path.join(os.path.realpath(f"/proc/self/fd/{dir_fd}"), text)
    text = os.path.abspath(text)
    if follows:
        return os.path.realpath(text)
    folder, name = os.path.split(text)
    return os.path.join(os.path.realpath(folder), name)


def _may_signal(event: str, target: int) -> bool:
    """os.kill(pid) or os.killpg(group); os.kill(0) and os.kill(-group) name groups too, os.kill(-1) everyone."""
    if event == "os.kill" and target > 0:
        return _ours(target)
    if event == "os.kill" and target == -1:
        return False
    group = -target if event == "os.kill" else target
    return _ours(group or os.getpgrp())


def _ours(pid: int) -> bool:
    """Whether the process (or the group it leads) is the runner or one it started, by parent links in /proc."""
    for _step in range(256):
        if pid == _limits.runner or pid == os.getpid():
            return True
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                pid = _int(stat.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            return False
        if pid <= 1:
            return False
    return False


def _note_open(event: str, arguments: tuple[Any, ...]) -> None:
    if _OPENED and _OPENED[-1] is None:
        return
    try:
        if event == "open" or event in _LISTINGS:
            target = arguments[0] if arguments else None
            if event in _LISTINGS and target is None:
                target = "."
            if _isinstance(target, (str, bytes)) or _isinstance(target, os.PathLike):
                kind = "file:" if event == "open" else "folder:"
                _OPENED.append(kind + os.path.abspath(os.fsdecode(target)) if len(_OPENED) < MAX_FILES_OPENED
                               else None)
            elif event in _LISTINGS:
                _OPENED.append(None)  # a folder listed by its descriptor
        elif event in _UNTOLD:
            _OPENED.append(None)
    except _BaseException:  # noqa: BLE001 - noting a file must never make the code's own open() fail
        pass


def _opened_now() -> list[str] | None:
    """What the call read, and every module file loaded so far (a helper two modules import is loaded once,
    by the first: the second reads it too)."""
    if None in _OPENED:
        return None
    loaded = {"file:" + module.__file__ for module in list(sys.modules.values())
              if _isinstance(getattr(module, "__file__", None), str)}
    return sorted(set(_OPENED) | loaded)


# -- the loop ----------------------------------------------------------------------------------------------


def serve(requests_fd: int, replies_fd: int, settings: dict[str, Any]) -> None:
    """One JSON request per line on its own pipe, events and the result as JSON lines on another. Learner code's
    fd 1 and 2 point elsewhere (the build passes /dev/null), so nothing it prints, even with os.write, can garble
    the replies. Each step has its own time limit, timed with SIGALRM; the build kills the keeper and all below
    it if a limit is ever ignored."""
    import resource

    runner_pid = os.getpid()
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ValueError, OSError):
        pass  # a lower limit already set by whoever started the build stands

    def send(line: str) -> None:
        if os.getpid() != runner_pid:
            # A process the code forked came back into the harness: it ends here, silently.
            assert _REAL_EXIT is not None
            _REAL_EXIT(0)
        data = (line + "\n").encode("utf-8")
        while data:
            data = data[os.write(replies_fd, data):]

    def arm(seconds: float) -> None:
        Clock.expired = False
        signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))

    def stop_clock() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)

    def report(event_json: str) -> None:
        event = _json_loads(event_json)
        if event.get("event") == "step":
            arm(event["time_limit"])
        send(event_json)

    global _limits
    proc = os.path.isdir(f"/proc/{runner_pid}")
    _limits = Limits(tuple(settings["writable"]), tuple(settings["protected"]), runner_pid, proc,
                     os.stat("/proc").st_dev if proc else -1, bool(settings.get("programs", True)))
    pyrunner._stop_host_clock = stop_clock
    # The build-only kinds of call (values files, variant functions), which the browser's runner lacks.
    pyrunner.HANDLERS.update(values_files.HANDLERS)
    # This module's state and the values runner's are put back after every call too, as the harness's is.
    pyrunner._snapshot = Snapshot(hosts=(sys.modules[__name__], values_files))
    become_subreaper()
    sys.addaudithook(_audit)
    requests = os.fdopen(requests_fd, "rb", buffering=0)
    reader = io.BufferedReader(requests)
    # Time limits count from here: starting Python on a busy machine is no part of anyone's run.
    send(_json_dumps({"event": "ready", "isolation": settings["isolation"], "confined": settings.get("confined")}))
    for line in reader:
        envelope = _json_loads(line)
        kind, limit = envelope["kind"], envelope["time_limit"]
        signal.signal(signal.SIGALRM, time_is_up)
        _OPENED.clear()
        try:
            if kind != "check":
                arm(limit)
            reply = handle(kind, _json_dumps(envelope["request"]), report)
        except TimeLimit:
            reply = _json_dumps({"status": "wrong", "score": 0, "timeout": limit})
        except _BaseException as error:  # noqa: BLE001 - the runner reports instead of dying
            reply = _json_dumps({"status": "unreadable", "error": {"type": _type(error).__name__,
                                                                   "text": _text_of(error), "lines": []}})
        finally:
            stop_clock()
        # What the call opened, not what the harness opens to clean up after it.
        opened = _json_dumps(_opened_now())
        _OPENED.clear()
        # The harness's own signals and reads: past the audit hook's checks.
        _BUSY.add(_thread.get_ident())
        try:
            reap_children()
            if end_strays(runner_pid):
                collect_strays(runner_pid)
        finally:
            _BUSY.clear()
        send('{"result": ' + reply + ', "restart": ' + ("true" if _threads_left() else "false")
             + ', "opened": ' + opened + "}")


def _threads_left() -> bool:
    """Threads the code started keep running after the call: the runner is replaced rather than trusted."""
    threading = sys.modules.get("threading")
    return threading is not None and threading.active_count() > 1


# -- what the code started ---------------------------------------------------------------------------------


def strays(runner_pid: int) -> list[int]:
    """Live processes the runner's code started: its descendants (by parent links; the runner is their
    subreaper, so orphans stay linked) and the members of its process group, on Linux (/proc)."""
    table: dict[int, tuple[int, int, bytes]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        # After the name: state, ppid, pgrp, …
        table[_int(entry)] = (_int(fields[1]), _int(fields[2]), fields[0])
    found = {pid for pid, (_parent, group, _state) in table.items() if group == runner_pid}
    children: dict[int, list[int]] = {}
    for pid, (parent, _group, _state) in table.items():
        children.setdefault(parent, []).append(pid)
    frontier = [runner_pid]
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in found:
                found.add(child)
                frontier.append(child)
    found.discard(runner_pid)
    return [pid for pid in found if table[pid][2] != b"Z"]


def end_strays(runner_pid: int) -> bool:
    """Kill what the code started once its call is over (again while any appear: one may fork meanwhile); whether
    the runner had any child to end."""
    if not has_children(runner_pid):
        return False  # the common case, told from one small file instead of a scan of every process
    for _attempt in range(50):
        found = strays(runner_pid)
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    return True


# How long the runner waits, after a call, for the processes it killed to be gone (one stuck in the kernel, in
# uninterruptible sleep, may outlast it: the next call is not held up for ever).
STRAYS_GONE_WITHIN = 5.0


def collect_strays(runner_pid: int) -> None:
    """Wait until what end_strays killed has died and been collected. A SIGKILL takes effect when the process next
    runs: on a busy machine the next call would otherwise start while this one's processes are still there, to
    be seen and counted against its limits. Only the runner calls this: the processes are its children (it is
    their subreaper), while the build must not collect children of its own that it did not start this way."""
    deadline = _monotonic() + STRAYS_GONE_WITHIN
    while True:
        reap_children()
        if not has_children(runner_pid) or _monotonic() > deadline:
            return
        _sleep(0.002)


def has_children(pid: int) -> bool:
    """Whether the process has a child (alive or not yet collected). The runner is a subreaper, so whatever its
    code started and is still alive is one of its children or below one: no child, nothing to end."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        return any(Path(f"/proc/{pid}/task/{task}/children").read_bytes().strip() for task in tasks)
    except OSError:
        return True  # no way to tell (no /proc, or no children files): look everywhere


def become_subreaper() -> None:
    """Processes orphaned below the runner are re-parented to it, not to init, so `strays` still finds them
    (not on other systems than Linux: the process group is what is left to end there)."""
    _prctl(PR_SET_CHILD_SUBREAPER, 1)


def _prctl(option: int, value: int) -> None:
    try:
        _libc().prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux


def reap_children() -> None:
    """Collect the exit status of processes the code forked, so none is left a zombie of the runner."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


if __name__ == "__main__":
    main(sys.argv)
