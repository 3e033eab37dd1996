"""The docs a user reads (issue #17): one list of system packages, used by the README, the
packaging notes and CI; no reference to files a clone lacks; the maths doc cites the paper."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ROOT / "packaging" / "system-packages.txt"


def listed_packages() -> list[str]:
    lines = PACKAGES.read_text(encoding="utf-8").splitlines()
    return [w for line in lines if not line.startswith("#") for w in line.split()]


def test_one_package_list_used_by_readme_packaging_and_ci():
    names = listed_packages()
    assert {"libxcb-icccm4", "libxcb-keysyms1", "libgl1", "fonts-dejavu-core"} <= set(names)
    assert len(names) == len(set(names))
    command = "grep -v '^#' packaging/system-packages.txt"
    for doc in ("README.md", "packaging/README.md", ".ci/run"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        assert command in text, doc
        # no second, hand-written list that could drift: no apt-get line naming a listed library
        for line in text.splitlines():
            if "apt-get install" in line and "system-packages.txt" not in line:
                assert not set(line.split()) & set(names), (doc, line)


def test_readme_points_only_at_files_in_the_repository():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


def test_maths_doc_cites_the_paper_and_the_conventions():
    text = (ROOT / "docs" / "MATHS.md").read_text(encoding="utf-8")
    for words in ("Vaswani et al. 2017", "Attention Is All You Need", "section 3.5", "interleaved",
                  "concat", "t2t", "Odd d_model", "√d_model", "1 at k = 0"):
        assert words in text, words


def test_readme_counts_the_presets_the_selector_lists():
    """The README's "lists N real models" is the number of presets shipped (it said 21 after two more came)."""
    from explorer.backend.presets import preset_names

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.findall(r"lists (\d+) real models", text)
    assert said == [str(len(preset_names()))]
