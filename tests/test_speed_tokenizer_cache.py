"""tokenize's start-up: jieba's prefix dictionary loaded per first character from a cache file.

The segmentation must be exactly what a tokenizer holding jieba's whole prefix
dictionary gives; the cache must be written once, atomically, never to stderr,
never into the temporary directory, and a corrupt or unwritable cache must
only cost time.
"""
from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ragmetrics_lite.text import tokenization

jieba = pytest.importorskip("jieba")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def prefix_dictionary():
    """jieba's whole prefix dictionary and total, built as jieba builds it."""
    with open(Path(jieba.__file__).with_name("dict.txt"), "rb") as file:
        return jieba.Tokenizer.gen_pfdict(file)


def _full_dictionary_tokenizer(prefix_dictionary, word_list: bool):
    """The tokenizer as built before the cache: jieba's whole prefix dictionary in ``FREQ``."""
    freq, total = prefix_dictionary
    tokenizer = jieba.Tokenizer()
    tokenizer.FREQ, tokenizer.total, tokenizer.initialized = dict(freq), total, True
    if word_list:
        for word, frequency in tokenization.word_list_entries():
            if frequency == 0:
                tokenizer.FREQ[word] = 0
            else:
                tokenizer.add_word(word, frequency)
    return tokenizer


@functools.cache
def _texts() -> list[str]:
    """The repository's Chinese prose, and random strings of dictionary words, characters,
    ASCII, digits, punctuation and emoji (so that many first characters and rare ones occur);
    each distinct text once."""
    texts = []
    for path in sorted(ROOT.glob("notebooks/*.ipynb")) + [ROOT / "docs" / "glossary.md"]:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n".join("".join(cell["source"]) for cell in json.loads(text)["cells"])
        texts.extend(line for line in text.splitlines() if line.strip())
    words = Path(jieba.__file__).with_name("dict.txt").read_text(encoding="utf-8").split("\n")
    words = [line.split(" ")[0] for line in words if line]
    rng = random.Random(11)
    extra = ["法国巴黎", "旅游景点", "GPT-4o", "330.5", "95.5%", "😀", "，", "。", " ", "e-mail", "C++", "\u3000"]
    for _ in range(400):
        pieces = rng.choices(words, k=rng.randint(1, 12)) + rng.choices(extra, k=rng.randint(0, 3))
        pieces += ["".join(rng.choices(rng.choice(words), k=2)) for _ in range(rng.randint(0, 3))]
        rng.shuffle(pieces)
        texts.append("".join(pieces))
    return list(dict.fromkeys(texts))


@pytest.mark.parametrize("word_list", [False, True])
def test_segmentation_equals_the_full_dictionary_tokenizer(prefix_dictionary, word_list):
    full = _full_dictionary_tokenizer(prefix_dictionary, word_list)
    ours = tokenization._tokenizer(word_list)
    texts = _texts()
    assert len(texts) > 500
    for text in texts:
        assert ours.lcut(text) == full.lcut(text), text
    # only the first characters met so far were copied in
    assert len(ours.FREQ) < len(full.FREQ)


def test_the_store_is_jiebas_prefix_dictionary_split_by_first_character(prefix_dictionary):
    import marshal

    total, store = tokenization._prefix_dictionary(jieba)
    freq, expected_total = prefix_dictionary
    assert total == expected_total
    merged = {}
    for char, entries in store.items():
        bucket = marshal.loads(entries)
        assert all(word[0] == char for word in bucket)
        merged.update(bucket)
    assert merged == freq


def _run(code: str, cache, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter with the cache folder ``cache`` (None: the variable unset),
    the temporary directory in ``tmp_path / 'tmp'`` and ``args`` as its arguments."""
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"), TEMP=str(tmp_path / "tmp"), TMP=str(tmp_path / "tmp"))
    env.pop(tokenization._CACHE_ENV, None)
    if cache is not None:
        env[tokenization._CACHE_ENV] = str(cache)
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp_path)


TOKENIZE = """
    import ragmetrics_lite as rm
    print(rm.tokenize("巴黎的埃菲尔铁塔有 330 米高，是著名的旅游景点"), rm.tokenize("法国巴黎", word_list=False))
"""
EXPECTED = "['巴黎', '的', '埃菲尔铁塔', '有', '330', '米', '高', '是', '著名', '的', '旅游', '景点'] ['法国巴黎']\n"

# jieba's dictionary file is not read again: building it would raise
FROM_CACHE_ONLY = """
    import jieba
    def _refuse(*args):
        raise AssertionError("the prefix dictionary was built again")
    jieba.Tokenizer.gen_pfdict = staticmethod(_refuse)
""" + TOKENIZE


def _cache_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@pytest.fixture(scope="module")
def written_once(tmp_path_factory) -> dict:
    """Three fresh interpreters in turn on one new cache folder: one that may only read the cache,
    one that builds it, one that may only read it again; what each printed, and the folder's files
    after each (name and modification time)."""
    tmp_path = tmp_path_factory.mktemp("written_once")
    cache = tmp_path / "cache" / "nested"
    runs = {}
    for name, code in [("first", FROM_CACHE_ONLY), ("built", TOKENIZE), ("again", FROM_CACHE_ONLY)]:
        runs[name] = _run(code, cache, tmp_path)
        runs[f"files after {name}"] = [(file, (cache / file).stat().st_mtime_ns) for file in _cache_files(cache)]
    runs["cache"], runs["tmp"] = cache, tmp_path / "tmp"
    return runs


def test_written_once_then_read_quietly(written_once):
    first = written_once["first"]
    assert first.returncode != 0 and "built again" in first.stderr  # no cache yet: it must build
    assert written_once["files after first"] == []

    built = written_once["built"]
    assert (built.stdout, built.stderr) == (EXPECTED, "")
    files = written_once["files after built"]
    assert len(files) == 1 and files[0][0].startswith("jieba-prefix-dict-") and files[0][0].endswith(".marshal")

    again = written_once["again"]
    assert (again.stdout, again.stderr) == (EXPECTED, "")
    assert written_once["files after again"] == files  # the same file, not written again
    assert _cache_files(written_once["tmp"]) == []


@pytest.fixture(scope="module")
def valid_cache(written_once) -> tuple[str, bytes]:
    """The name and bytes of the cache file a fresh interpreter wrote (``written_once``)."""
    (path,) = written_once["cache"].iterdir()
    assert written_once["built"].stdout == EXPECTED
    return path.name, path.read_bytes()


# One fresh interpreter runs TOKENIZE in several scenarios in turn, each as a fresh interpreter
# would meet it: no tokenizer built yet, its own cache variable, temporary directory and working
# directory, its stdout and stderr (the file descriptors, so output from C code counts too) in
# files of its own; an exception is printed to the scenario's stderr and the next one runs.
# What they share is what is imported (ragmetrics_lite, jieba): output at import would show in the
# first scenario only; ``written_once`` checks three start-ups in interpreters of their own.
# (An interpreter start-up with ``import ragmetrics_lite`` costs ~0.7 s; each scenario still
# builds the prefix dictionary from jieba's file, as a process without a usable cache does.)
SCENARIOS = """
    import json, os, sys, tempfile, traceback
    code = compile(sys.argv[1], "<TOKENIZE>", "exec")
    saved = os.dup(1), os.dup(2)
    for scenario in json.loads(sys.argv[2]):
        os.environ.pop(sys.argv[3], None)
        if scenario["cache"] is not None:
            os.environ[sys.argv[3]] = scenario["cache"]
        for variable in ("TMPDIR", "TEMP", "TMP"):
            os.environ[variable] = scenario["tmp"]
        tempfile.tempdir = None  # gettempdir() reads the variables again
        os.chdir(scenario["cwd"])
        tokenization = sys.modules.get("ragmetrics_lite.text.tokenization")
        if tokenization is not None:
            tokenization._TOKENIZERS.clear()  # no tokenizer built yet, as in a fresh interpreter
        with open(scenario["stdout"], "w") as out, open(scenario["stderr"], "w") as err:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            try:
                exec(code, {"__name__": "__main__"})
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
"""


@pytest.fixture(scope="module")
def without_a_usable_cache(tmp_path_factory, valid_cache) -> dict:
    """TOKENIZE in five scenarios that find no usable cache, run in turn by one fresh interpreter
    (``SCENARIOS``), each in its own folder holding ``tmp`` (its temporary directory): the cache
    file truncated, with one byte flipped, or a folder in its place (``valid_cache``'s name and
    bytes, in ``cache``), the cache variable empty, and a cache folder that cannot be made (under
    the file ``a file``). For each: its folder, cache file, and what it printed."""
    base = tmp_path_factory.mktemp("without_a_usable_cache")
    name, data = valid_cache
    scenarios, runs = [], {}
    for scenario in ["truncated", "one byte flipped", "a folder", "empty variable", "unwritable"]:
        folder = base / scenario
        (folder / "tmp").mkdir(parents=True)
        cache = folder / "cache"
        if scenario == "empty variable":
            cache = ""
        elif scenario == "unwritable":
            (folder / "a file").write_text("not a folder")
            cache = folder / "a file" / "cache"
        else:
            cache.mkdir()
        path = folder / "cache" / name
        if scenario == "a folder":
            path.mkdir()  # unreadable as a file and not replaceable: tokenize still works, without a cache
        elif scenario in ("truncated", "one byte flipped"):
            path.write_bytes({"truncated": data[: len(data) // 2],
                              "one byte flipped": data[:-10] + bytes([data[-10] ^ 1]) + data[-9:]}[scenario])
        output = base / f"{scenario} output"
        output.mkdir()
        scenarios.append({"cache": str(cache), "tmp": str(folder / "tmp"), "cwd": str(folder),
                          "stdout": str(output / "stdout"), "stderr": str(output / "stderr")})
        runs[scenario] = {"folder": folder, "path": path}
    done = _run(SCENARIOS, None, base, textwrap.dedent(TOKENIZE), json.dumps(scenarios), tokenization._CACHE_ENV)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), done.stderr
    for run, scenario in zip(runs.values(), scenarios):
        run["stdout"] = Path(scenario["stdout"]).read_text()
        run["stderr"] = Path(scenario["stderr"]).read_text()
    return runs


@pytest.mark.parametrize("damage", ["truncated", "one byte flipped", "a folder"])
def test_a_corrupt_cache_is_rebuilt_silently(without_a_usable_cache, valid_cache, damage):
    done = without_a_usable_cache[damage]
    path, data = done["path"], valid_cache[1]
    assert (done["stdout"], done["stderr"]) == (EXPECTED, "")
    if damage != "a folder":
        assert path.read_bytes() == data  # rewritten whole, as a fresh build writes it
    assert _cache_files(path.parent) == [path.name]  # no temporary file left behind


def test_an_empty_variable_turns_the_cache_off(without_a_usable_cache):
    done = without_a_usable_cache["empty variable"]
    assert (done["stdout"], done["stderr"]) == (EXPECTED, "")
    folder = done["folder"]
    assert _cache_files(folder) == ["tmp"] and _cache_files(folder / "tmp") == []


def test_an_unwritable_cache_folder_costs_only_time(without_a_usable_cache):
    done = without_a_usable_cache["unwritable"]
    assert (done["stdout"], done["stderr"]) == (EXPECTED, "")


def test_default_folder_is_the_user_cache_directory(tmp_path, monkeypatch):
    platformdirs = pytest.importorskip("platformdirs")
    monkeypatch.delenv(tokenization._CACHE_ENV, raising=False)
    path = tokenization._cache_file("some key")
    assert path.parent == Path(platformdirs.user_cache_dir("ragmetrics_lite", appauthor=False))
    assert ROOT not in path.parents
    monkeypatch.setenv(tokenization._CACHE_ENV, str(tmp_path))
    assert tokenization._cache_file("some key").parent == tmp_path
    assert tokenization._cache_file("another key") != tokenization._cache_file("some key")
    monkeypatch.setenv(tokenization._CACHE_ENV, "")
    assert tokenization._cache_file("some key") is None


def test_without_jiebas_dictionary_file_on_disk_it_reads_jiebas_own_way_and_caches_nothing(monkeypatch, tmp_path):
    """(jieba installed in a zip, say): the prefix dictionary comes from ``get_dict_file``."""
    monkeypatch.setenv(tokenization._CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(jieba, "__file__", str(tmp_path / "nowhere" / "__init__.py"))
    import marshal

    total, store = tokenization._prefix_dictionary(jieba)
    monkeypatch.undo()
    expected_total, expected = tokenization._prefix_dictionary(jieba)
    assert total == expected_total and store.keys() == expected.keys()
    assert all(marshal.loads(store[char]) == marshal.loads(expected[char]) for char in store)
    assert list(tmp_path.iterdir()) == []
