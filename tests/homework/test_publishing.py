"""Publishing for a class: the student edition by default, its student branch, private masters and variants.

The student edition's tests read what `make student` wrote (``_build/student``), as the book's
tests read `make book`'s ``_build/html``: `make test` builds both first.
"""

from __future__ import annotations

import json
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest
import yaml

from perceptron_homework import checks, grading
from perceptron_homework.build import find_masters
from tests.support.homework_builds import PRIVATE_SECRET, homework_build

ROOT = Path(__file__).resolve().parents[2]
STUDENT = ROOT / "_build" / "student"
BRANCH = STUDENT / "branch"
MASTERS = ROOT / "notebooks" / "homework"
SOLUTION_MARKERS = ("Solution to", "<summary>Solution", "solution-start", "solution-end", "{solution}",
                    "# BEGIN SOLUTION", "otter_assign_solution_cell", "BEGIN TEST CONFIG", "run_here(")

pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")


def chapters() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [c["file"] for part in toc["parts"] for c in part["chapters"] if c["file"].startswith("notebooks/")]


def source_text(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def gated_solution_code(chapter: Path) -> list[str]:
    """The lines of code cells between {solution-start} and {solution-end} in a chapter's source
    that no other code cell of the chapter has."""
    lines, others, inside = [], set(), False
    for cell in json.loads(chapter.read_text(encoding="utf-8"))["cells"]:
        text = source_text(cell)
        if cell["cell_type"] == "markdown":
            if "{solution-start}" in text:
                inside = True
            if "{solution-end}" in text:
                inside = False
        elif inside:
            lines += [line.strip() for line in text.splitlines() if len(line.strip()) >= 25]
        else:
            others |= {line.strip() for line in text.splitlines()}
    return [line for line in lines if line not in others]


# ------------------------------------------------------------------------------ the student edition


@pytest.mark.parametrize("doc", chapters())
def test_student_edition_launch_buttons_open_the_student_branch(doc):
    from coursebook.edition import STUDENT_BRANCH

    html = (STUDENT / "html" / f"{doc}.html").read_text(encoding="utf-8").replace("&amp;", "&")
    assert re.search(rf'colab[^"]*/blob/{STUDENT_BRANCH}/(\./)?{doc}\.ipynb"', html), f"{doc}: Colab button"
    assert re.search(rf'git-pull\?[^"]*branch={STUDENT_BRANCH}"', html), f"{doc}: JupyterHub button"
    assert re.search(rf'mybinder\.org/v2/gh/[^"]*/{STUDENT_BRANCH}\?', html), f"{doc}: Binder button"
    launch = re.findall(r'"(https://(?:colab\.research\.google\.com|mybinder\.org|[^"]*/hub/user-redirect)[^"]*)"', html)
    assert len(launch) >= 3, launch
    for url in launch:
        assert STUDENT_BRANCH in url and not re.search(r"/(main|jupyter)[/?]|branch=(main|jupyter)", url), url


@pytest.mark.parametrize("doc", chapters())
def test_student_branch_notebooks_have_no_solution(doc):
    path = BRANCH / f"{doc}.ipynb"
    assert path.exists(), f"{path} missing: `make student` writes the student branch's tree"
    nb = json.loads(path.read_text(encoding="utf-8"))
    text = "\n".join(source_text(c) for c in nb["cells"])
    for marker in SOLUTION_MARKERS:
        assert marker not in text, f"{doc}: {marker!r} in the student branch"
    code = "\n".join(source_text(c) for c in nb["cells"] if c["cell_type"] == "code")
    leaked = [line for line in gated_solution_code(ROOT / f"{doc}.ipynb") if line in code]
    assert not leaked, f"{doc}: solution code in the student branch: {leaked[:3]}"


def test_the_check_of_the_student_branch_sees_the_full_editions_solutions():
    """The same check fails on a chapter with its solutions: it can fail."""
    chapter = ROOT / "notebooks" / "05_convergence.ipynb"
    nb = json.loads(chapter.read_text(encoding="utf-8"))
    text = "\n".join(source_text(c) for c in nb["cells"])
    assert any(marker in text for marker in SOLUTION_MARKERS)
    code = "\n".join(source_text(c) for c in nb["cells"] if c["cell_type"] == "code")
    assert [line for line in gated_solution_code(chapter) if line in code]


def test_student_branch_holds_what_binder_needs_and_no_instructor_file():
    for name in ("environment.yml", "postBuild", "pyproject.toml", "README.md", "src/perceptron/__init__.py",
                 "src/perceptron_homework/student.py"):
        assert (BRANCH / name).is_file(), name
    files = [p.relative_to(BRANCH).as_posix() for p in BRANCH.rglob("*") if p.is_file()]
    assert not [f for f in files if f.endswith(".zip") or "autograder" in f or "homework_secret" in f], files
    assert not [f for f in files if f.endswith(".md") and f.startswith(("book/", "notebooks/"))]
    assert {f for f in files if f.startswith("notebooks/") and "/homework/" not in f} == {
        f"{doc}.ipynb" for doc in chapters()}


def test_student_branch_carries_the_homework_student_notebooks_without_solutions(tmp_path, tmp_path_factory):
    from coursebook.edition import write_branch

    out = tmp_path / "homework"
    shutil.copytree(homework_build(tmp_path_factory, "hw2_linear_classifiers"), out / "hw2_linear_classifiers")
    branch = write_branch(tmp_path / "branch", homework=out)
    (notebook,) = (branch / "notebooks" / "homework").glob("*.ipynb")
    text = notebook.read_text(encoding="utf-8")
    for marker in SOLUTION_MARKERS:
        assert marker not in text, marker
    nb = nbformat.reads(text, as_version=4)
    setup = next(i for i, c in enumerate(nb.cells) if c.source.startswith("# Setup:"))
    otter = next(i for i, c in enumerate(nb.cells) if "import otter" in c.source)
    assert setup < otter


def test_pages_workflow_publishes_the_student_edition_unless_an_instructor_chooses_the_full_one():
    from coursebook.edition import STUDENT_BRANCH

    text = (ROOT / ".github" / "workflows" / "book.yml").read_text()
    workflow = yaml.safe_load(text)
    edition = workflow[True]["workflow_dispatch"]["inputs"]["edition"]  # YAML 1.1 reads `on:` as True
    assert edition["default"] == "student" and edition["options"] == ["student", "full"]
    assert workflow["env"]["EDITION"] == "${{ inputs.edition || vars.PAGES_EDITION || 'student' }}"
    steps = workflow["jobs"]["build"]["steps"]
    choose = next(s["run"] for s in steps if s.get("name") == "Choose what to publish")
    student, full = choose.split("else")
    assert "SITE=_build/student/html" in student and f"BRANCH={STUDENT_BRANCH}" in student
    assert "NOTEBOOKS=_build/student/branch" in student
    assert "SITE=_build/html" in full and "BRANCH=jupyter" in full
    assert next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact"))["with"] == {
        "path": "${{ env.SITE }}"}
    # The secret reaches make through the environment of its step, never a command line.
    assert all("secrets.HOMEWORK_SECRET" not in s.get("run", "") for s in steps)
    assert "make book homework" in next(s["run"] for s in steps if s.get("env", {}).get("HOMEWORK_SECRET"))


def test_student_config_points_the_launch_buttons_at_the_student_branch():
    from coursebook.edition import STUDENT_BRANCH, student_config

    config = student_config()["sphinx"]["config"]
    assert config["jupyter_notebooks_branch"] == config["binder_branch"] == STUDENT_BRANCH
    full = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]
    assert full["jupyter_notebooks_branch"] != STUDENT_BRANCH and not full.get("binder_branch")


# ---------------------------------------------------------------------------------- private masters


def test_masters_are_read_from_a_private_folder_or_repository(tmp_path, monkeypatch):
    repo = tmp_path / "private-course"
    (repo / "notebooks" / "homework").mkdir(parents=True)
    shutil.copy(MASTERS / "hw2_linear_classifiers.ipynb", repo / "notebooks" / "homework")
    assert find_masters(repo) == [repo / "notebooks" / "homework" / "hw2_linear_classifiers.ipynb"]
    monkeypatch.setenv("HOMEWORK_MASTERS", str(repo / "notebooks" / "homework"))
    assert find_masters() == [repo / "notebooks" / "homework" / "hw2_linear_classifiers.ipynb"]
    monkeypatch.delenv("HOMEWORK_MASTERS")
    monkeypatch.chdir(ROOT)
    assert [p.name for p in find_masters()] == [f"{a}.ipynb" for a in checks.ASSIGNMENTS]
    with pytest.raises(ValueError, match="no master notebooks"):
        find_masters(tmp_path / "empty")


# The build from a private folder of masters (`perceptron-homework build --masters DIR --secret-file F`)
# runs in test_secrets.py's test_a_secret_file_keeps_every_character_and_the_secret_is_never_printed,
# which builds from such a folder with a private master (issue 35: one otter assign instead of two).


# ----------------------------------------------------------------------------- variants of the task


def test_a_private_variant_changes_the_task_deterministically():
    public = checks.variant("hw1_perceptron", checks.PUBLIC_SECRET)
    assert (public["rule"], public["bias"], public["xor_seed"], public["lr_seed"]) == ("margin", "one", 0, 7)
    seen = set()
    for k in range(12):
        v = checks.variant("hw1_perceptron", f"secret {k}")
        assert v == checks.variant("hw1_perceptron", f"secret {k}")  # a function of the secret
        assert (v["rule"], v["bias"]) != ("margin", "one"), "every private variant changes the rules"
        seen.add((v["rule"], v["bias"]))
    assert seen == {("margin", "none"), ("sign", "one"), ("sign", "none")}


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> dict[str, Path]:
    """Homework 1 built twice, public and under a private secret (the one of issue 22); read-only."""
    secrets = {"public": checks.PUBLIC_SECRET, "private": PRIVATE_SECRET}
    with ThreadPoolExecutor(max_workers=2) as pool:
        built = pool.map(lambda kv: homework_build(tmp_path_factory, "hw1_perceptron", secret=kv[1]),
                         secrets.items())
    return dict(zip(secrets, built))


def test_the_student_notebook_states_its_variants_task(variants):
    public = (variants["public"] / "student" / "hw1_perceptron.ipynb").read_text()
    private = (variants["private"] / "student" / "hw1_perceptron.ipynb").read_text()
    v = checks.variant("hw1_perceptron", PRIVATE_SECRET)
    assert "{{" not in public and "{{" not in private
    assert f"seed={v['xor_seed']}" in private and "make_xor(40, seed=0)" in public
    assert json.dumps(v["bias_text"])[1:-1] in private and json.dumps(v["bias_text"])[1:-1] not in public
    assert "Tulip" not in private


def test_the_public_masters_code_fails_a_private_variant(variants, tmp_path):
    """Each key graded by the other variant's autograder loses points; the private key scores full
    marks under its own. The public key under the public autograder (15) is not graded again here
    (issue 35): it is test_homework.py's `full` fake of homework 1, which must fail no test."""
    keys = tmp_path / "keys"
    keys.mkdir()
    for name, folder in variants.items():
        shutil.copy(folder / "autograder" / "hw1_perceptron.ipynb", keys / f"{name}_key.ipynb")
    scores = {}
    for name, folder in variants.items():
        graded = sorted(k for k in keys.glob("*.ipynb") if (name, k.stem) != ("public", "public_key"))
        reports = grading.grade(graded, folder / "autograder" / "hw1_perceptron-autograder.zip", jobs=2)
        for path, report in reports.items():
            assert report["status"] == "ok", report
            scores[name, Path(path).stem] = sum(report["questions"].values())
    print(f"hw1 scores (zip, key): {scores}")
    assert len(scores) == 3 and scores["private", "private_key"] == 15
    assert scores["private", "public_key"] <= 10  # the public master's solutions lose points
    assert scores["public", "private_key"] <= 10


def test_a_homeworks_data_live_in_one_place(monkeypatch):
    """Changing homework 1's XOR dataset in checks.hw1_perceptron changes the notebook and the tests."""
    import numpy as np

    from perceptron_homework.build import render_master
    from perceptron_homework.checks import hw1_perceptron as hw1

    monkeypatch.setattr(hw1, "PUBLIC", {**hw1.PUBLIC, "xor_seed": 5})
    monkeypatch.setattr(checks, "_variants", {})
    notebook = render_master(MASTERS / "hw1_perceptron.ipynb", checks.variant("hw1_perceptron", checks.PUBLIC_SECRET))
    assert "make_xor(40, seed=5)" in notebook and "seed=0)" not in notebook

    def answers(seed):
        X, y = hw1.make_xor(40, seed=seed)
        run = hw1.reference(X, y, hw1.PUBLIC, max_epochs=25)
        return {"xor_w": run.w, "xor_b": run.b, "xor_mistakes": run.mistakes,
                "xor_errors": hw1.errors_of(X, y, run.w, run.b, "margin")}

    variant = checks.variant("hw1_perceptron", checks.PUBLIC_SECRET)
    assert np.array_equal(hw1.xor_data(variant)[0], hw1.make_xor(40, seed=5)[0])
    assert not np.array_equal(hw1.xor_data(variant)[0], hw1.make_xor(40, seed=0)[0])
    env = answers(5)  # what the rendered notebook computes
    for test in ("test_xor_training_stops", "test_xor_errors_counts_the_returned_hyperplane"):
        checks.run_here("hw1_perceptron", test, dict(env), secret=checks.PUBLIC_SECRET)
