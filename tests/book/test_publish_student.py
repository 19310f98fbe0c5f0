"""A private course in one command, and a fork in one edit, rehearsed with local git repositories.

The instructor's private repository is a bare repository (file://) holding a copy of this checkout
whose ``_config.yml`` names a fork's own address (https://github.com/fork-owner/private-course);
the public student repository is another bare repository, whose address on the web is given as
``STUDENT_URL`` (https://github.com/fork-owner/public-course). From a clone of the private one,
`make publish-student REMOTE=file://... STUDENT_URL=...` builds the student edition and pushes it.
The test then reads what arrived in the public repository, as a student's clone would: the branch
``student`` (tagged ``v<version>``) holds no solution, homework master, hidden test or bank key, and
the site on ``gh-pages`` links to the public repository only (repository button, changelog, issues,
errata, Binder, Colab, the hub, the setup cells' install), never to the private one. The fork half:
before the build the setup check flags every notebook of the copy (the URL changed); after it,
make has rewritten them from the new URL. One student build (about 2 minutes on 2 busy cores).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from coursebook import edition as student
from coursebook import site
from tests.support.solution_probes import CHAPTERS, leaks, probes, words

ROOT = Path(__file__).resolve().parents[2]
PRIVATE_URL = "https://github.com/fork-owner/private-course"
PUBLIC_URL = "https://github.com/fork-owner/public-course"
UPSTREAM = "https://github.com/perceptron-course/perceptron"
MARKERS = ("# BEGIN SOLUTION", "otter_assign_solution_cell", "# BEGIN TESTS", "BEGIN TEST CONFIG", "{solution}",
           "solution-start", "<summary>Solution", "Solution to", "**Answer:", "**Distractors.**")
LINK = re.compile(r'(?:href|src)="(https?://[^"]+)"')
REPOSITORY_LINK = re.compile(r"^https://(github\.com|mybinder\.org|colab\.research\.google\.com|[^/]+\.github\.io)/"
                             r"|git-pull\?")


def run(*args, cwd: Path, env=None, check=True, timeout=900) -> subprocess.CompletedProcess:
    done = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    if check and done.returncode:
        raise AssertionError(f"{' '.join(map(str, args))} failed ({done.returncode}):\n{done.stdout[-3000:]}\n"
                             f"{done.stderr[-3000:]}")
    return done


def git(*args, cwd: Path) -> str:
    return run("git", "-c", "user.name=t", "-c", "user.email=t@localhost", *args, cwd=cwd).stdout


def checkout_env(checkout: Path) -> dict:
    # The checkout's own coursebook (ROOT = the checkout), with this checkout's .venv and node_modules.
    return {**os.environ, "PYTHONPATH": f"{checkout / 'book' / '_ext'}", "PYTHONDONTWRITEBYTECODE": "1"}


def files(tree: Path) -> dict[str, str]:
    return {p.relative_to(tree).as_posix(): p.read_text(encoding="utf-8", errors="replace")
            for p in tree.rglob("*") if p.is_file() and ".git" not in p.relative_to(tree).parts}


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("private-course")
    copy = tmp / "copy"
    for name in git("ls-files", "-co", "--exclude-standard", cwd=ROOT).splitlines():
        source = ROOT / name
        if source.is_file() and not name.startswith(("node_modules/", ".venv/", "_build/")):
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    config = copy / "_config.yml"
    text = config.read_text()
    assert f"url: {UPSTREAM}\n" in text
    config.write_text(text.replace(f"url: {UPSTREAM}\n", f"url: {PRIVATE_URL}\n"))  # the fork's one edit
    private, public = tmp / "private.git", tmp / "public.git"
    for bare in (private, public):
        git("init", "-q", "--bare", str(bare), cwd=tmp)
    git("init", "-q", "-b", "main", cwd=copy)
    git("add", "-A", cwd=copy)
    git("commit", "-q", "-m", "the instructor's private course", cwd=copy)
    git("push", "-q", private.as_uri(), "main", cwd=copy)
    checkout = tmp / "checkout"
    git("clone", "-q", "-b", "main", private.as_uri(), str(checkout), cwd=tmp)
    for name in (".venv", "node_modules"):
        (checkout / name).symlink_to(ROOT / name)
    env = checkout_env(checkout)
    python = str(ROOT / ".venv" / "bin" / "python")
    before = run(python, "-m", "coursebook.setup_cell", "--check", cwd=checkout, env=env, check=False)
    make = run("make", "-o", ".venv/.installed", "-o", "node_modules/.installed", "publish-student",
               f"REMOTE={public.as_uri()}", f"STUDENT_URL={PUBLIC_URL}", cwd=checkout, env=env, check=False,
               timeout=1500)
    assert make.returncode == 0, make.stdout[-3000:] + make.stderr[-3000:]
    after = run(python, "-m", "coursebook.setup_cell", "--check", cwd=checkout, env=env, check=False)
    clones = {}
    for branch in ("student", "gh-pages"):
        clones[branch] = tmp / branch
        git("clone", "-q", "-b", branch, public.as_uri(), str(clones[branch]), cwd=tmp)
    return {"checkout": checkout, "before": before, "after": after, "public": public, "python": python, "env": env,
            "student": clones["student"], "pages": clones["gh-pages"]}


def test_a_fork_changes_one_url_and_make_rewrites_every_setup_cell(course):
    stale = re.findall(r"^stale: (\S+)", course["before"].stdout, re.MULTILINE)
    homework = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks" / "homework").glob("hw*.ipynb"))
    assert course["before"].returncode == 1 and sorted(stale) == sorted(
        [c.relative_to(ROOT).as_posix() for c in CHAPTERS] + homework)  # 10 chapters and 4 homework masters
    assert course["after"].returncode == 0, course["after"].stdout
    for name in stale:
        text = (course["checkout"] / name).read_text()
        assert f'git+{PRIVATE_URL}@v' in text and UPSTREAM not in text, name
    # `make homework` writes a master's setup cell before building it (and its stamp rebuilds every
    # assignment when the cell's text changes): what make would run, without running it.
    plan = run("make", "-n", "-o", ".venv/.installed", "homework", "PUBLIC=1", cwd=course["checkout"],
               env=course["env"]).stdout
    for master in homework:
        fix, build = plan.find(f"coursebook.setup_cell {master}"), plan.find(f"perceptron-homework build {master}")
        assert -1 < fix < build, (master, plan[-2000:])
    assert "coursebook.setup_cell --digest" in plan


def test_the_student_branch_holds_no_solution_master_hidden_test_or_key(course):
    tree = files(course["student"])
    assert {f"notebooks/{c.name}" for c in CHAPTERS} <= set(tree) and "CHANGELOG.md" in tree
    assert not [f for f in tree if f.endswith((".zip", "moodle.xml", "manifest.json")) or "autograder" in f
                or f.startswith("book/") or "bank_" in f]
    for name, text in tree.items():
        if name != "CHANGELOG.md":  # release notes name the markers
            assert not [m for m in MARKERS if m in text], name
    code = "\n".join("".join(c["source"]) for f, t in tree.items() if f.endswith(".ipynb")
                     for c in json.loads(t)["cells"] if c["cell_type"] == "code")
    for chapter in CHAPTERS:
        probe_code = [line for _, lines in probes(chapter) for line in lines]
        assert not [line for line in probe_code if line in " ".join(code.split())], chapter.name
    assert git("tag", "--points-at", "HEAD", cwd=course["student"]).split() == [f"v{student.book_version()}"]


def test_the_published_site_links_only_to_the_public_repository(course):
    pages, branch = files(course["pages"]), files(course["student"])
    for name, text in {**pages, **{f"student:{k}": v for k, v in branch.items()}}.items():
        assert "private-course" not in text and "perceptron-course/perceptron" not in text, name
    links = [link.replace("&amp;", "&") for name, text in pages.items() if name.endswith(".html")
             for link in LINK.findall(text)]
    outside = [link for link in links if REPOSITORY_LINK.search(link) and "fork-owner/public-course" not in link
               and "fork-owner%2Fpublic-course" not in link and "fork-owner.github.io/public-course" not in link]
    assert not outside, outside[:5]
    chapter = pages["notebooks/03_sgd.html"]
    for expected in (f'href="{PUBLIC_URL}/tree/student"', f'href="{PUBLIC_URL}/blob/student/CHANGELOG.md"',
                     f"{PUBLIC_URL}/issues/new?title=Erratum", f"{PUBLIC_URL}/issues/new?title=Issue",
                     "mybinder.org/v2/gh/fork-owner/public-course/student?", "branch=student"):
        assert expected in chapter, expected
    assert re.search(r"colab\.research\.google\.com/github/fork-owner/public-course/blob/student/(\./)?notebooks/"
                     r"03_sgd\.ipynb", chapter)
    assert "notebooks/03_sgd.ipynb" in branch  # what Colab opens is there
    setup = [text for name, text in {**branch, **pages}.items() if name.endswith(".ipynb")]
    assert setup and all(f"git+{PUBLIC_URL}@v{student.book_version()}" in text for text in setup)
    text = " ".join(words(" ".join(re.sub(r"<[^>]+>", " ", t) for n, t in pages.items() if n.endswith(".html"))))
    assert all(leaks(probes(chapter), (text, text)) == 0 for chapter in CHAPTERS)


def test_publish_refuses_a_tree_with_a_master_and_pushes_nothing(course, tmp_path):
    checkout, empty = course["checkout"], tmp_path / "empty.git"
    git("init", "-q", "--bare", str(empty), cwd=tmp_path)
    planted = checkout / "_build" / "student" / "branch" / "notebooks" / "homework" / "hw1_perceptron.ipynb"
    planted.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "notebooks" / "homework" / "hw1_perceptron.ipynb", planted)
    code = (f"from coursebook import edition; edition.publish({empty.as_uri()!r}, {PUBLIC_URL!r}, build=False)")
    done = run(course["python"], "-c", code, cwd=checkout, env=course["env"], check=False)
    assert done.returncode != 0 and "nothing was pushed" in done.stderr and "# BEGIN SOLUTION" in done.stderr
    assert git("for-each-ref", cwd=empty) == ""
    planted.unlink()


def test_leak_check_names_links_to_other_repositories_and_private_addresses(tmp_path):
    (tmp_path / "a.html").write_text(f'<a href="{UPSTREAM}/blob/main/x">x</a> <a href="{PUBLIC_URL}/tree/student">y</a>')
    (tmp_path / "b.md").write_text(f"clone {PRIVATE_URL}\n")
    (tmp_path / "hw1-autograder.zip").write_bytes(b"PK")
    found = student.leaks(tmp_path, PUBLIC_URL, [PRIVATE_URL])
    assert f"a.html: links {UPSTREAM}/blob/main/x" in found and f"b.md: names {PRIVATE_URL}" in found
    assert "hw1-autograder.zip: not a student file" in found and len(found) == 4  # b.md both names and links it


def test_student_links_default_to_the_student_branch_and_are_configurable(monkeypatch, tmp_path):
    monkeypatch.delenv(student.URL_ENV, raising=False)
    config = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]
    assert student.student_links() == {"url": config["url"], "branch": "student", "issues": f"{config['url']}/issues"}
    assert student.student_config(PUBLIC_URL)["repository"]["url"] == PUBLIC_URL
    assert student.github_address("git@github.com:fork-owner/public-course.git") == PUBLIC_URL
    with pytest.raises(ValueError, match="https://host/owner/name"):
        student.student_links("file:///tmp/public.git")


# ------------------------------------------------------------------- links follow repository.url
CONF = '''
html_theme = "sphinx_book_theme"
html_theme_options = {{"repository_url": "{url}", "repository_branch": "{branch}", "use_repository_button": True,
                      "use_issues_button": True}}
def setup(app):
    app.add_config_value("student_build", False, "env")
    from coursebook import site
    site.register(app)
'''
PAGE = f"Geometry\n========\n\nClone it: ``git clone {UPSTREAM}``.\n"


def build(src: Path, url: str, branch: str = "main") -> str:
    (src / "conf.py").write_text(CONF.format(url=url, branch=branch))
    done = run(sys.executable, "-m", "sphinx", "-q", "-b", "html", "-d", str(src / "_doctrees"), str(src),
               str(src / "_html"), cwd=src, check=False)
    assert done.returncode == 0, done.stderr
    return (src / "_html" / "notebooks" / "01_geometry.html").read_text()


def test_a_changed_url_reaches_errata_changelog_and_text_at_the_next_incremental_build(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "index.rst").write_text(".. toctree::\n\n   notebooks/01_geometry\n")
    (tmp_path / "notebooks" / "01_geometry.rst").write_text(PAGE)
    first = build(tmp_path, UPSTREAM)
    assert f"{UPSTREAM}/issues/new?title=Erratum" in first
    second = build(tmp_path, PRIVATE_URL, "student")  # same doctrees: an incremental build
    assert f"{PRIVATE_URL}/issues/new?title=Erratum" in second and UPSTREAM not in second
    assert f"{PRIVATE_URL}/blob/student/CHANGELOG.md" in second and f'class="pre">{PRIVATE_URL}<' in second
    assert f'href="{PRIVATE_URL}/tree/student"' in second  # the repository button: the build's branch
    assert f"{PRIVATE_URL}/issues/new?title=Issue" in second    # the issues button
    # The issue links follow issues_url where one is configured.
    context = {"header_buttons": [{"type": "group", "buttons": [
        {"label": "source-issues-button", "url": f"{PRIVATE_URL}/issues/new?title=x"}]}]}

    class App:
        config = type("C", (), {"html_theme_options": {"repository_url": PUBLIC_URL, "repository_branch": "student"},
                                "issues_url": "https://tracker.example.edu/course"})()

    site.point_source_buttons(App, "notebooks/01_geometry", "page.html", context, None)
    assert context["header_buttons"][0]["buttons"][0]["url"].startswith("https://tracker.example.edu/course/new?")


def test_the_workflow_publishes_a_private_course_to_the_student_repository_only():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "book.yml").read_text())
    steps = workflow["jobs"]["build"]["steps"]
    publish = next(s for s in steps if "make publish-student" in s.get("run", ""))
    assert publish["if"] == "env.EDITION == 'student' && env.STUDENT_REPOSITORY != ''"
    assert 'REMOTE="https://github.com/${STUDENT_REPOSITORY}.git"' in publish["run"]
    assert "secrets." not in publish["run"] and "${TOKEN}" in publish["run"]  # the token via git's configuration
    # This repository's own Pages and branches get nothing in that case.
    for step in steps:
        if step.get("uses", "").startswith("actions/upload-pages-artifact") or "git push" in step.get("run", ""):
            assert step["if"] == "steps.where.outputs.pages == 'true'", step
    assert workflow["jobs"]["deploy"]["if"] == "needs.build.outputs.pages == 'true'"
