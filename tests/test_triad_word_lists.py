"""LexicalJudge's word and cue lists as package data (ragmetrics_lite/data/judge_words/)."""
import json
from importlib import resources
from pathlib import Path

import pytest

from ragmetrics_lite.triad import answer_types, negation, quantities
from ragmetrics_lite.triad.judge_words import list_names, word_list, word_sections
from ragmetrics_lite.triad.lexical import word_lists_sha256

FREEZE = json.loads((Path(__file__).resolve().parent.parent / "data" / "triad" / "judge_freeze.json").read_text(
    encoding="utf-8"))
SECTIONED = {"question_types", "answer_evidence", "units", "answer_type_names"}


def _lists():
    """(file, section, entries) of every list shipped."""
    for name in list_names():
        if name in SECTIONED:
            yield from ((name, title, entries) for title, entries in word_sections(name).items())
        else:
            yield name, "", word_list(name)


def test_every_file_is_read_as_one_list_or_as_sections():
    assert set(list_names()) >= SECTIONED | {"negation_cues", "evasion_cues", "measure_words"}
    assert len(list(_lists())) > len(list_names())


@pytest.mark.parametrize("name, section, entries", list(_lists()), ids=lambda v: v if isinstance(v, str) else "")
def test_each_list_holds_entries_and_repeats_none(name, section, entries):
    assert entries, f"{name} [{section}] is empty"
    repeated = sorted({entry for entry in entries if entries.count(entry) > 1})
    assert not repeated, f"{name} [{section}] repeats {repeated}"
    assert all(isinstance(entry, str) and entry.strip() for entry in entries)


def test_a_unit_word_belongs_to_one_unit():
    words = [word for words in word_sections("units").values() for word in words]
    assert len(words) == len(set(words)) == len(quantities.UNITS)


def test_the_loaded_lists_are_the_frozen_ones():
    """The freeze record fingerprints every list the rules read: loading them from files changed none."""
    assert word_lists_sha256() == FREEZE["word_lists_sha256"]
    assert list(negation.NEGATION_CUES) == FREEZE["negation_cues"]
    assert list(negation.NEGATION_EXCEPTIONS) == FREEZE["negation_exceptions"]
    assert answer_types.QUESTION_TYPES["yes_no"][-2:] == ("has ", "have ")  # quoted: the space is kept
    assert answer_types.ANSWER_EVIDENCE["weight"] == () and list(answer_types.ANSWER_EVIDENCE) == list(
        answer_types.QUESTION_TYPES)
    assert quantities.UNITS["%"] == quantities.UNITS["percent"] == ("share", 1)
    assert str(quantities.UNITS["mm"][1]) == "0.001"


def test_files_are_clean_text():
    """Unquoted entries carry no stray spaces, so an editor that trims lines changes nothing."""
    folder = resources.files("ragmetrics_lite").joinpath("data").joinpath("judge_words")
    for name in list_names():
        lines = folder.joinpath(f"{name}.txt").read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# "), f"{name}.txt starts without a comment saying what it is for"
        assert all(line == line.strip() for line in lines), name
        quoted = [json.loads(line) for line in lines if line.startswith('"')]
        assert all(entry != entry.strip() for entry in quoted), f"{name}.txt quotes an entry that needs no quotes"


def test_lists_are_read_once_and_shaped_as_asked():
    assert word_list("evasion_cues") is word_list("evasion_cues")
    with pytest.raises(ValueError, match="read it with word_sections"):
        word_list("units")
    with pytest.raises(ValueError, match="before its first"):
        word_sections("evasion_cues")


def test_the_answer_type_names_are_the_phrases_they_replace():
    """The phrases a reason names each answer type with, as they were written in lexical.py: one per type."""
    from ragmetrics_lite.triad.lexical import _TYPE_NAMES

    assert _TYPE_NAMES == {
        "weight": "a weight", "distance": "a distance", "clock": "a time of day", "duration": "a duration",
        "time": "a time", "amount": "an amount", "number": "a number", "step": "a step or action",
        "place": "a place", "reason": "a reason", "yes_no": "a yes or no", "open": "anything"}
    assert list(_TYPE_NAMES) == list(answer_types.QUESTION_TYPES)
    assert all(len(phrases) == 1 for phrases in word_sections("answer_type_names").values())
