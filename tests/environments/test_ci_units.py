"""What keeps `make test` within its time: xdist's units of work and the shared homework builds.

tests/conftest.py cuts the long browser and JupyterLab files into units and orders the longest first;
tests/support/homework_builds.py builds each homework once per session for both workers.
"""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import pytest

import perceptron
from tests import conftest
from tests.support import homework_builds

ROOT = Path(__file__).resolve().parents[2]


def test_units_are_files_but_for_the_split_ones():
    assert conftest.unit_of("notebooks/03_sgd.ipynb::Cell 4") == "notebooks/03_sgd.ipynb"
    assert conftest.unit_of("tests/homework/test_homework.py::test_score_table") == "tests/homework/test_homework.py"
    assert conftest.unit_of("src/perceptron/training.py::perceptron.training.train") == "src/perceptron/training.py"
    axe = "tests/book/test_browser.py::test_page_offline_accessible_and_legible"
    assert conftest.unit_of(f"{axe}[notebooks/01_geometry-dark]") == f"{axe}[dark]"
    assert conftest.unit_of(f"{axe}[book/intro-light]") == f"{axe}[light]"
    lab = "tests/environments/test_lab.py::test_chapter_runs_renders_and_slides_in_jupyterlab"
    assert conftest.unit_of(f"{lab}[01_geometry]") == conftest.unit_of(f"{lab}[10_networks]") == lab


@pytest.mark.parametrize("unit", conftest.SLOW_FIRST)
def test_every_slow_unit_names_a_real_test(unit):
    """A renamed file or test would silently drop out of the order: each name must still exist."""
    path, _, rest = unit.partition("::")
    assert (ROOT / path).is_file(), unit
    if rest:
        function, _, mode = rest.partition("[")
        source = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(rf"^def {re.escape(function)}\(", source, re.MULTILINE), unit
        if mode:
            assert f'"{mode.rstrip("]")}"' in source, unit
    for split in conftest.SPLIT_BY_LAST_ID:
        assert split.partition("::")[0] in conftest.SPLIT, split


def test_a_homework_is_built_once_per_key_and_shared(tmp_path_factory, tmp_path, monkeypatch):
    """Two threads ask for the same build at once, a third asks later: one build. Another secret or
    another master is another build; a build that fails is not kept."""
    from perceptron_homework import build as build_module

    calls = []

    def fake_build(master, out, *, secret, run_tests):
        calls.append((master.read_text(), secret, run_tests))
        if secret == "fails":
            raise RuntimeError("otter assign failed")
        dest = out / master.stem
        dest.mkdir(parents=True)
        (dest / "manifest.json").write_text(json.dumps({"secret": secret}))
        return dest

    monkeypatch.setattr(build_module, "build", fake_build)
    master = tmp_path / "hw9_fake.ipynb"
    master.write_text(f"a master only this test has: {tmp_path}")
    found = []
    threads = [threading.Thread(target=lambda: found.append(homework_builds.homework_build(
        tmp_path_factory, "hw9_fake", master=master))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    found.append(homework_builds.homework_build(tmp_path_factory, "hw9_fake", master=master))
    assert len(calls) == 1 and len(set(found)) == 1 and found[0].name == "hw9_fake"
    assert found[0].is_relative_to(homework_builds.shared_folder(tmp_path_factory))
    other = homework_builds.homework_build(tmp_path_factory, "hw9_fake", master=master, secret="another")
    assert other != found[0] and len(calls) == 2
    master.write_text(f"the master changed: {tmp_path}")
    assert homework_builds.homework_build(tmp_path_factory, "hw9_fake", master=master) not in found
    assert len(calls) == 3
    for _ in range(2):
        with pytest.raises(RuntimeError, match="otter assign failed"):
            homework_builds.homework_build(tmp_path_factory, "hw9_fake", master=master, secret="fails")
    assert len(calls) == 5
    with pytest.raises(ValueError, match="not the one of"):
        homework_builds.homework_build(tmp_path_factory, "hw1_perceptron", master=master)


def test_threads_of_one_worker_create_its_base_folder_one_at_a_time(tmp_path, monkeypatch):
    """test_homework's `built` fixture builds two homeworks in two threads, and both asked pytest for
    the worker's base folder at once: getbasetemp() removes and recreates it on first use, so the
    second thread failed with FileExistsError (37 errors in a CI rehearsal)."""
    from _pytest.tmpdir import TempPathFactory

    factory = TempPathFactory(tmp_path / "popen-gw0", 3, "all", trace=lambda *a: None, _ispytest=True)
    inside, most, original = [0], [0], factory.getbasetemp

    def slow():
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        time.sleep(0.2)
        try:
            return original()
        finally:
            inside[0] -= 1

    monkeypatch.setattr(factory, "getbasetemp", slow)
    found = []
    threads = [threading.Thread(target=lambda: found.append(homework_builds.shared_folder(factory)))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 1 and len(found) == 3 and len(set(found)) == 1


def test_wheel_builds_of_one_checkout_take_turns(tmp_path):
    """pip builds the wheel in the checkout's build/: two workers building homework at once (or
    `make -j homework`) collided there ("File exists") until the builds took turns."""
    from perceptron_homework import gradescope

    wheels, errors = [], []

    def one(k):
        try:
            wheels.append(gradescope.build_wheel(tmp_path / f"w{k}"))
        except RuntimeError as exc:
            errors.append(str(exc)[-300:])

    threads = [threading.Thread(target=one, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(wheels) == 3, errors
    assert {w.name for w in wheels} == {f"perceptron_course-{perceptron.__version__}-py3-none-any.whl"}
