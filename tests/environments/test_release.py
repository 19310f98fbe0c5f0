"""Terms and provenance: licences, CITATION.cff, one version everywhere, the errata channel."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"


def package_version() -> str:
    """The package's version: `perceptron.__version__` where it is defined, else pyproject's."""
    import perceptron

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    version = getattr(perceptron, "__version__", None) or project["version"]
    assert project.get("version", version) == version, "pyproject.toml and the package disagree"
    return version


def citation() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def changelog_releases() -> list[tuple[str, str]]:
    """(version, date) of every released heading `## [X.Y.Z] - YYYY-MM-DD`, newest first."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", text, flags=re.MULTILINE)


def test_code_licence_is_mit_and_text_licence_is_the_full_cc_by_4():
    mit = (ROOT / "LICENSE").read_text()
    assert mit.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in mit
    cc = (ROOT / "LICENSE-TEXT").read_text()
    assert "Creative Commons Attribution 4.0 International Public License" in cc
    for section in range(1, 9):          # the licence is reproduced whole, not summarised
        assert f"Section {section} --" in cc, f"section {section} of CC BY 4.0 is missing"
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] in ("MIT", {"text": "MIT"})


@pytest.mark.parametrize("page", ["README.md", "book/intro.md"])
def test_licences_and_the_notebook_rule_are_referenced(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "`LICENSE`" in text and "`LICENSE-TEXT`" in text
    assert "CC BY 4.0" in text and "MIT" in text
    assert re.search(r"[Nn]otebooks mix both", text), f"{page} does not state the rule for notebooks"


def test_citation_cff_is_valid_cff_1_2_0_with_the_fields_github_reads():
    data = citation()
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).validate(data)
    for field in ("cff-version", "message", "title", "authors", "version", "date-released",
                  "license", "repository-code"):
        assert data.get(field), f"CITATION.cff lacks {field}"
    assert data["cff-version"] == "1.2.0"
    repository = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    assert data["repository-code"] == repository


def test_schema_check_can_fail():
    bad = citation()
    bad["authors"] = "someone"                       # must be a list of persons or entities
    schema = json.loads((ROOT / "tests" / "data" / "cff-1.2.0.schema.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(schema).validate(bad)


def test_one_version_across_package_citation_changelog_and_book():
    version = package_version()
    releases = changelog_releases()
    assert releases, "CHANGELOG.md has no released version"
    newest, date = releases[0]
    data = citation()
    assert str(data["version"]) == version == newest
    assert str(data["date-released"]) == date
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    assert f"Version {version}" in intro, "the intro's BibTeX entry names another version"


def test_every_built_page_shows_the_version():
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `make book` (make test does it first)")
    version = package_version()
    for page in [HTML / "book" / "intro.html", *sorted((HTML / "notebooks").glob("[0-9][0-9]_*.html"))]:
        text = page.read_text(encoding="utf-8")
        assert f'<p class="book-version">Version {version}' in text, f"{page.name} does not show the version"


def test_errata_channel_is_on():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["html"]["use_issues_button"] is True
    assert "coursebook" in config["sphinx"]["extra_extensions"]   # its site stage writes the errata line


def test_every_built_chapter_ends_with_a_report_an_error_link():
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `make book` (make test does it first)")
    repository = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    chapters = sorted((HTML / "notebooks").glob("[0-9][0-9]_*.html"))
    assert len(chapters) == len(list((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")))
    for page in chapters:
        text = page.read_text(encoding="utf-8")
        link = re.search(r'<p class="errata">.*?href="([^"]+)"', text, flags=re.DOTALL)
        assert link, f"{page.name} has no 'report an error' line"
        assert link.group(1).startswith(f"{repository}/issues/new?title=Erratum%20in%20{page.stem}")
