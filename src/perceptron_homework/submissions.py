"""What the platforms hand back: every student's notebook, and who the student is.

:func:`discover` reads, from folders or zips, nested in any way:

- a **Gradescope export** ("Export Submissions"): ``assignment_N_export/submission_M/...`` and
  ``submission_metadata.yml``, whose entries name each submission's submitters (``:name:``,
  ``:sid:``, ``:email:``) and its time (``:created_at:``); a group submission gives one student
  per submitter;
- an **nbgrader course folder** on a hub: ``submitted/<student>/<assignment>/<notebook>.ipynb``,
  with the submission time in ``timestamp.txt``;
- an **nbgrader exchange**'s inbound folder: ``<student>+<assignment>+<timestamp>[+<random>]/``
  (one folder per hand-in; the latest one of each student counts);
- loose notebooks: the student is the file's name without ``.ipynb``.

Zips are opened by :func:`safe_extract`: no entry may leave the folder it is extracted to (absolute
paths, ``..``, links), and the sizes are capped (one entry, the whole archive, the number of
entries, the depth of zips within zips). A notebook that breaks a cap, or that is not a notebook
at all (:func:`notebook_problem`), stays in the list with the reason, so that its student gets a
row with 0 and the reason while the rest of the class is graded.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import stat
import zipfile
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from .grading import MAX_NOTEBOOK

MIB = 1024**2
MAX_ENTRY = 64 * MIB  # bytes of one extracted entry
MAX_TOTAL = 4 * 1024 * MIB  # bytes extracted from one archive given on the command line, nested zips included
MAX_ENTRIES = 100_000
MAX_DEPTH = 3  # zips within zips
GRADESCOPE_METADATA = "submission_metadata.yml"
INBOUND = re.compile(r"(?P<user>[^+/]+)\+(?P<assignment>[^+/]+)\+(?P<timestamp>[^+/]+)(\+[^+/]*)?")


@dataclass
class Submission:
    """One student's hand-in: the notebook to grade (or the reason there is none) and who it is."""

    student_id: str
    notebook: Path | None
    name: str = ""
    email: str = ""
    submitted_at: datetime | None = None
    source: str = ""  # where it came from, for the instructor: a path in the export or folder
    problem: str = ""  # why it cannot be graded; empty when it can
    platform: str = "files"
    notes: list[str] = field(default_factory=list)


class UnsafeArchive(ValueError):
    """An archive that cannot be extracted safely."""


# ------------------------------------------------------------------------------------- zips
class _Budget:
    def __init__(self, total: int, entries: int):
        self.total, self.entries = total, entries


def safe_extract(archive: Path, dest: Path, *, max_entry: int = MAX_ENTRY, budget: _Budget | None = None,
                 depth: int = 0) -> dict[Path, str]:
    """Extract ``archive`` into ``dest`` safely; return the entries left out, with the reason.

    Every entry must stay inside ``dest`` (no absolute path, no ``..``, no link); an entry
    larger than ``max_entry`` bytes, or one past the archive's budget of bytes and entries, is
    not written: an empty file of its name stands for it and the returned dict says why. Zips
    inside are extracted in turn, into a folder of the zip's name without ``.zip``, up to
    ``MAX_DEPTH`` levels. A damaged archive raises :class:`UnsafeArchive`.
    """
    budget = budget or _Budget(MAX_TOTAL, MAX_ENTRIES)
    skipped: dict[Path, str] = {}
    dest.mkdir(parents=True, exist_ok=True)
    try:
        zf = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as exc:
        raise UnsafeArchive(f"{archive.name}: not a readable zip ({exc})") from exc
    inner = []
    with zf:
        for info in zf.infolist():
            name = info.filename.replace("\\", "/")
            parts = PurePosixPath(name).parts
            if (name.startswith("/") or re.match(r"^[A-Za-z]:", name) or ".." in parts or not parts
                    or any(p.startswith("\x00") for p in parts)):
                raise UnsafeArchive(f"{archive.name}: the entry {info.filename!r} would be written outside the folder")
            if stat.S_ISLNK(info.external_attr >> 16):
                raise UnsafeArchive(f"{archive.name}: the entry {info.filename!r} is a symbolic link")
            if parts[0] == "__MACOSX":
                continue
            target = dest.joinpath(*parts)
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            budget.entries -= 1
            if budget.entries < 0:
                raise UnsafeArchive(f"{archive.name}: more than {MAX_ENTRIES} entries")
            target.parent.mkdir(parents=True, exist_ok=True)
            reason = _copy_capped(zf, info, target, min(max_entry, budget.total))
            if reason:
                target.write_bytes(b"")
                skipped[target] = reason
            else:
                budget.total -= target.stat().st_size
            if target.suffix.lower() == ".zip" and not reason:
                inner.append(target)
    for nested in inner:
        folder = nested.with_suffix("")
        if depth + 1 > MAX_DEPTH:
            skipped[nested] = f"a zip nested more than {MAX_DEPTH} deep was not opened"
            continue
        if folder.exists():
            folder = nested.with_name(nested.name + ".d")
        try:
            skipped.update(safe_extract(nested, folder, max_entry=max_entry, budget=budget, depth=depth + 1))
            nested.unlink()
        except UnsafeArchive as exc:
            skipped[nested] = str(exc)
    return skipped


def _copy_capped(zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, cap: int) -> str:
    """Copy one entry, counting the bytes really written; the reason if it was cut short."""
    if info.file_size > cap:
        return f"{info.filename}: {info.file_size} bytes once extracted, more than the limit of {cap}"
    written = 0
    try:
        with zf.open(info) as src, open(target, "wb") as out:
            while chunk := src.read(1 << 20):
                written += len(chunk)
                if written > cap:
                    break
                out.write(chunk)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as exc:
        return f"{info.filename}: damaged in the zip ({exc})"
    if written > cap:
        return f"{info.filename}: larger than the limit of {cap} bytes once extracted"
    return ""


# -------------------------------------------------------------------------------- notebooks
def notebook_problem(path: Path) -> str:
    """Why the file at ``path`` cannot be graded as a notebook, or ``""``."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return f"the notebook cannot be read ({exc.strerror})"
    if size == 0:
        return "the file is empty"
    if size > MAX_NOTEBOOK:
        return f"the notebook is larger than {MAX_NOTEBOOK // MIB} MiB"
    try:
        nb = json.loads(path.read_bytes())
    except UnicodeDecodeError:
        return "not a notebook: the file is not text (UTF-8)"
    except RecursionError:
        return "not a notebook: its JSON is nested too deeply"
    except ValueError as exc:
        return f"not a notebook: invalid JSON, truncated or damaged ({exc})"
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return "not a notebook: the JSON has no list of cells"
    if nb.get("nbformat") != 4:
        return f"not a notebook this grader reads: nbformat {nb.get('nbformat')!r}, not 4"
    if not all(isinstance(c, dict) for c in nb["cells"]):
        return "not a notebook: a cell is not a JSON object"
    return ""


def _notebooks(folder: Path) -> list[Path]:
    found = [p for p in folder.rglob("*") if p.suffix.lower() == ".ipynb" and p.is_file() and not p.is_symlink()
             and ".ipynb_checkpoints" not in p.parts and "__MACOSX" not in p.parts]
    return sorted(found, key=lambda p: (len(p.relative_to(folder).parts), str(p)))


def _choose(candidates: list[Path], assignment: str | None) -> tuple[Path | None, list[str]]:
    if not candidates:
        return None, []
    named = [p for p in candidates if assignment and p.stem == assignment]
    chosen = (named or candidates)[0]
    notes = [f"{len(candidates)} notebooks; graded {chosen.name}"] if len(candidates) > 1 else []
    return chosen, notes


# ------------------------------------------------------------------------------------ times
def parse_time(value) -> datetime | None:
    """A submission time from a platform: a YAML datetime, ISO 8601, or nbgrader's ``... UTC``."""
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    utc = text.endswith((" UTC", "Z"))
    text = text.removesuffix(" UTC").removesuffix("Z")
    # Gradescope writes nanoseconds and a space before the offset: 2026-11-30 21:33:35.591563000 -07:00
    text = re.sub(r"(\.\d{6})\d+", r"\1", text)
    text = re.sub(r"\s+([+-]\d\d:?\d\d)$", r"\1", text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC) if utc and moment.tzinfo is None else moment


def aware(moment: datetime) -> datetime:
    """A time with its offset; a time without one is read in this machine's time zone."""
    return moment if moment.tzinfo is not None else moment.astimezone()


# ------------------------------------------------------------------------------- discovery
def discover(paths: list[Path | str], workdir: Path, assignment: str | None = None) -> list[Submission]:
    """Every student's submission under ``paths`` (notebooks, folders, zips); zips go to ``workdir``.

    One entry per student: where a student handed in more than once, the latest hand-in (by the
    platform's time, else the last found) counts, and a note says so.
    """
    counter = itertools.count()
    found: list[Submission] = []
    for p in map(Path, paths):
        if not p.exists():
            raise ValueError(f"{p}: no such file or folder")
        if p.is_dir():
            found += _walk(p, workdir, counter, assignment, {})
        elif p.suffix.lower() == ".zip":
            dest = workdir / f"{next(counter):03d}-{p.stem}"
            try:
                skipped = safe_extract(p, dest)
            except UnsafeArchive as exc:
                raise ValueError(str(exc)) from exc
            found += _walk(dest, workdir, counter, assignment, skipped, shown=p.name)
        elif p.suffix.lower() == ".ipynb":
            found.append(_loose(p, {}, p.name))
        else:
            raise ValueError(f"{p}: not a notebook, a folder or a zip")
    return _latest_per_student(found)


def _loose(path: Path, skipped: dict[Path, str], shown: str, assignment: str | None = None) -> Submission:
    """A notebook on its own: the student is its name, or its folder's where it has the assignment's."""
    student = path.parent.name if assignment and path.stem == assignment and path.parent.name else path.stem
    return Submission(student, path, source=shown, problem=skipped.get(path, ""))


def _walk(folder: Path, workdir: Path, counter, assignment: str | None, skipped: dict[Path, str],
          shown: str | None = None) -> list[Submission]:
    shown = shown if shown is not None else str(folder)
    if (folder / GRADESCOPE_METADATA).is_file():
        return _gradescope(folder, workdir, counter, assignment, skipped, shown)
    if folder.name == "submitted":
        return _nbgrader_submitted(folder, workdir, counter, assignment, skipped, shown)
    children = sorted(folder.iterdir(), key=lambda p: p.name)
    inbound = [c for c in children if c.is_dir() and INBOUND.fullmatch(c.name)]
    if inbound:
        return _nbgrader_inbound(inbound, workdir, counter, assignment, skipped, shown)
    found = []
    for child in children:
        label = f"{shown}/{child.name}"
        if child.is_dir() and child.name not in (".ipynb_checkpoints", "__MACOSX"):
            found += _walk(child, workdir, counter, assignment, skipped, label)
        elif child.suffix.lower() == ".ipynb" and child.is_file():
            found.append(_loose(child, skipped, label, assignment))
        elif child.suffix.lower() == ".zip" and child.is_file():
            if child in skipped:
                found.append(Submission(child.stem, None, source=label, problem=skipped[child]))
                continue
            dest = workdir / f"{next(counter):03d}-{child.stem}"
            try:
                inner = safe_extract(child, dest)
            except UnsafeArchive as exc:
                found.append(Submission(child.stem, None, source=label, problem=str(exc)))
                continue
            found += _walk(dest, workdir, counter, assignment, {**skipped, **inner}, label)
    return found


def _one_folder(folder: Path, workdir: Path, counter, assignment, skipped) -> tuple[Path | None, str, list[str]]:
    """The notebook of one student's folder (zips in it opened), or the reason there is none."""
    archives = sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".zip" and p.is_file())
    if archives and workdir not in folder.parents:
        # Zips are opened in a copy of the student's folder, never in the instructor's.
        copy = workdir / f"{next(counter):03d}-{folder.name}"
        shutil.copytree(folder, copy, symlinks=True)
        skipped = {copy / p.relative_to(folder): r for p, r in skipped.items() if folder in p.parents}
        folder, archives = copy, [copy / a.relative_to(folder) for a in archives]
    problems = []
    for archive in archives:
        if archive in skipped:
            problems.append(skipped[archive])
            continue
        try:
            skipped.update(safe_extract(archive, archive.parent / (archive.stem + ".unzipped")))
        except UnsafeArchive as exc:
            problems.append(str(exc))
    notebook, notes = _choose(_notebooks(folder), assignment)
    if notebook is None:
        return None, "; ".join(problems) or "no .ipynb notebook in the submission", notes
    return notebook, skipped.get(notebook, ""), notes


def _gradescope(folder: Path, workdir: Path, counter, assignment, skipped, shown) -> list[Submission]:
    import yaml

    try:
        meta = yaml.safe_load((folder / GRADESCOPE_METADATA).read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ValueError(f"{shown}/{GRADESCOPE_METADATA}: not readable YAML ({exc})") from exc
    if not isinstance(meta, dict):
        raise ValueError(f"{shown}/{GRADESCOPE_METADATA}: not a mapping of submissions")  # noqa: TRY004
    found = []
    for key, entry in meta.items():
        entry = entry if isinstance(entry, dict) else {}
        sub_folder = folder / str(key)
        if sub_folder.is_dir() and folder in sub_folder.resolve().parents:
            notebook, problem, notes = _one_folder(sub_folder, workdir, counter, assignment, skipped)
        else:
            notebook, problem, notes = None, f"the export has no folder {key}", []
        submitted = parse_time(entry.get(":created_at"))
        submitters = entry.get(":submitters") or [{}]
        for person in submitters if isinstance(submitters, list) else [{}]:
            person = person if isinstance(person, dict) else {}
            sid, email = _text(person.get(":sid")), _text(person.get(":email"))
            found.append(Submission(sid or email or str(key), notebook, _text(person.get(":name")), email, submitted,
                                    f"{shown}/{key}", problem, "gradescope",
                                    notes + ([f"group of {len(submitters)}"] if len(submitters) > 1 else [])))
    return found


def _text(value) -> str:
    return "" if value is None else str(value).strip()


def _nbgrader_submitted(folder: Path, workdir, counter, assignment, skipped, shown) -> list[Submission]:
    found = []
    for student in sorted(p for p in folder.iterdir() if p.is_dir()):
        assignments = sorted(p for p in student.iterdir() if p.is_dir())
        chosen = [p for p in assignments if p.name == assignment] or assignments
        if not chosen:
            found.append(Submission(student.name, None, source=f"{shown}/{student.name}",
                                    problem="no assignment folder", platform="nbgrader"))
            continue
        where = chosen[0]
        notebook, problem, notes = _one_folder(where, workdir, counter, assignment, skipped)
        found.append(Submission(student.name, notebook, source=f"{shown}/{student.name}/{where.name}",
                                submitted_at=_timestamp_file(where), problem=problem, platform="nbgrader",
                                notes=notes))
    return found


def _timestamp_file(folder: Path) -> datetime | None:
    path = folder / "timestamp.txt"
    if path.is_file() and path.stat().st_size < 1000:
        return parse_time(path.read_text(encoding="utf-8", errors="replace"))
    return None


def _nbgrader_inbound(entries: list[Path], workdir, counter, assignment, skipped, shown) -> list[Submission]:
    matching = [e for e in entries if INBOUND.fullmatch(e.name)["assignment"] == assignment] or entries
    found = []
    for entry in matching:
        m = INBOUND.fullmatch(entry.name)
        notebook, problem, notes = _one_folder(entry, workdir, counter, assignment, skipped)
        submitted = _timestamp_file(entry) or parse_time(m["timestamp"])
        found.append(Submission(m["user"], notebook, source=f"{shown}/{entry.name}", submitted_at=submitted,
                                problem=problem, platform="nbgrader", notes=notes))
    return found


def _latest_per_student(found: list[Submission]) -> list[Submission]:
    groups: dict[str, list[Submission]] = {}
    for s in found:
        groups.setdefault(s.student_id.casefold(), []).append(s)
    out = []
    for subs in groups.values():
        if len(subs) == 1:
            out.append(subs[0])
            continue
        dated = all(s.submitted_at is not None for s in subs)
        latest = max(subs, key=lambda s: aware(s.submitted_at)) if dated else subs[-1]
        out.append(replace(latest, notes=[*latest.notes, f"{len(subs)} hand-ins; graded the latest"]))
    return out


def safe_name(text: str) -> str:
    """A file name made from a student id: letters, digits, ``._-@`` only."""
    cleaned = re.sub(r"[^A-Za-z0-9._@-]+", "_", text).strip("._") or "student"
    return cleaned[:100]


def is_late(submitted: datetime | None, due: datetime | None) -> str:
    """``"yes"``/``"no"``, or ``""`` when the platform gives no time or there is no due date."""
    if submitted is None or due is None:
        return ""
    return "yes" if aware(submitted) > aware(due) else "no"
