"""EmbeddingJudge: its interface, its vector cache, no network, one thread, and the frozen settings.

The model is loaded once, in a child process whose sockets refuse to open: it imports the package,
judges a text the cache lacks (so the model loads), and recomputes a seeded sample of the cached
vectors. Everything else runs on the shipped cache and must not load the model.
"""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.triad import TRIAD_TASKS, judge_items, read_triad_labels
from ragmetrics_lite.triad import embedding, vectors
from ragmetrics_lite.triad.embedding import DEFAULT_JUDGES, DefaultJudge, EmbeddingJudge

ROOT = Path(__file__).resolve().parents[1]
FREEZE = json.loads((ROOT / "data" / "triad" / "embedding_freeze.json").read_text(encoding="utf-8"))
sys.path.insert(0, str(ROOT / "scripts"))

import build_embedding_cache  # noqa: E402
import judge_figures  # noqa: E402

QUESTION = "公司的退款政策是怎样的？"   # notebook 12's question, reworded so every chunk shares 公司 with it
COMPANY = ["公司成立于 2008 年，最初是一家网上书店。2015 年起公司开始销售家电，总部也迁到了杭州。",
           "公司正在招聘后端工程师和客服专员。应聘者请把简历发送到招聘邮箱，面试共两轮。",
           "本月公司发布了新一代智能音箱。发布会上，公司还宣布与三家物流企业合作。"]
REFUND = ["退款政策：商品签收后 7 天内可以申请退款，商品需保持完好。定制商品不支持退款。",
          "申请退款时，请在订单页点击“申请退款”并填写原因。审核通过后，退款在 3 个工作日内原路退回。",
          "退款到账后，系统会发送短信通知。如有疑问，请拨打客服电话。"]

CHILD = r"""
import json, random, socket, sys, time

def refuse(*args, **kwargs):
    raise OSError("the test refuses every network connection")

socket.socket = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
started = time.perf_counter()
import numpy as np
import ragmetrics_lite as rml
from ragmetrics_lite.triad import embedding, vectors
imported = time.perf_counter() - started
judge = rml.EmbeddingJudge()
started = time.perf_counter()
cached = judge.context_relevance("公司的退款政策是怎样的？",
                                 ["退款政策：商品签收后 7 天内可以申请退款，商品需保持完好。"])
cached_seconds = time.perf_counter() - started
loaded_before_miss = "model" in vectors._STATE
started = time.perf_counter()
missed = judge.support(["Die Q9 Kaffeemaschine entkalkt sich alle 40 Tage selbst."],
                       ["Die Q9 entkalkt sich automatisch alle 40 Tage."])
first_seconds = time.perf_counter() - started
sys.path.insert(0, sys.argv[1])
import build_embedding_cache
keys, stored = vectors._cache()
have = set(keys.tolist())
cached_texts = [t for t in build_embedding_cache.source_texts() if vectors.text_key(t) in have]
sample = random.Random(28).sample(cached_texts, 24)
rows = stored[np.searchsorted(keys, np.array([vectors.text_key(t) for t in sample], np.uint64))]
fresh = vectors.quantize(vectors._model().encode(sample))
unit = lambda m: m.astype(float) / np.linalg.norm(m.astype(float), axis=1, keepdims=True)
print(json.dumps({
    "imported": imported, "cached_seconds": cached_seconds, "first_seconds": first_seconds,
    "cached_verdict": cached[0].verdict, "missed_verdict": missed[0].verdict,
    "loaded_before_miss": loaded_before_miss, "threads": vectors._STATE["model"].threads,
    "backend_threads": vectors._STATE["model"]._model.threads,
    "largest_step": int(np.abs(rows.astype(int) - fresh.astype(int)).max()),
    "lowest_cosine": float((unit(rows) * unit(fresh)).sum(axis=1).min())}))
"""


@pytest.fixture(scope="module")
def child():
    """One process with sockets refused: import, a cached call, a miss (the model loads), a sample recomputed."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "scripts")], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\nimport {report['imported']:.2f} s, cached call {report['cached_seconds'] * 1000:.1f} ms, "
          f"first call on a miss {report['first_seconds']:.2f} s")
    return report


def test_no_network_at_import_or_use(child):
    assert child["cached_verdict"] is True
    assert child["loaded_before_miss"] is False       # the cache answered without the model
    assert isinstance(child["missed_verdict"], bool)  # the model loaded and judged, sockets refused


def test_the_model_runs_on_one_thread(child):
    assert child["threads"] == child["backend_threads"] == 1


def test_a_seeded_sample_of_the_cache_equals_the_model(child):
    assert child["largest_step"] <= 1                 # int8 steps: recomputation may round one step apart
    assert child["lowest_cosine"] >= 0.9999


def test_every_source_text_is_in_the_cache():
    assert build_embedding_cache.main(["--check"]) == 0


def test_the_cache_file():
    path = Path(str(vectors.cache_file()))
    assert path.name == f"usem3-{vectors.model_version()}.npz" == FREEZE["model"]["cache"]
    with np.load(path, allow_pickle=False) as stored:
        keys, rows = stored["keys"], stored["vectors"]
    assert keys.dtype == np.uint64 and rows.dtype == np.int8 and rows.shape == (len(keys), 512)
    assert (np.diff(keys.astype(object)) > 0).all()   # sorted, no key twice
    assert (np.abs(rows).max(axis=1) == 127).all()    # each row scaled to its largest component
    print(f"\n{len(keys)} vectors, {path.stat().st_size / 1e6:.2f} MB")


def test_judging_every_labelled_item_needs_no_model():
    vectors.embed([QUESTION])
    before = len(vectors._STATE["computed"])
    for task in TRIAD_TASKS:
        judge_items(read_triad_labels(ROOT / "data" / "triad", task), task, EmbeddingJudge())
    assert len(vectors._STATE["computed"]) == before


def test_verdicts_and_reasons():
    judge = EmbeddingJudge()
    verdicts = judge.context_relevance(QUESTION, COMPANY + REFUND)
    assert [v.verdict for v in verdicts] == [False] * 3 + [True] * 3
    assert all(f"{judge.relevance_threshold:g} with the question (sentence: " in v.reason for v in verdicts)
    negated = judge.support(["订单发货后可以取消。"], ["订单发货后无法取消。"])[0]
    assert not negated.verdict and "lexical checks" in negated.reason and "negates (无)" in negated.reason
    assert judge.support([], ["ctx"]) == judge.context_relevance("q", []) == judge.answer_relevance("q", []) == []
    assert judge.support(["a."], [])[0] == rml.Verdict(False, "cosine -1.00 < 0.17 with the closest context "
                                                             "sentence; no context sentence")


@pytest.mark.parametrize("value", [1.5, -2, True, "0.5", None])
def test_thresholds_are_cosines(value):
    with pytest.raises(ValueError, match="support_threshold must be a cosine"):
        EmbeddingJudge(support_threshold=value)


def test_refund_chunks_score_above_company_chunks():
    """Notebook 12's chunks with its question reworded to share 公司 with every chunk."""
    judge = EmbeddingJudge()
    company = [rml.context_relevancy(QUESTION, [chunk], judge) for chunk in COMPANY]
    refund = [rml.context_relevancy(QUESTION, [chunk], judge) for chunk in REFUND]
    assert max(company) < min(refund)
    question = vectors.embed([QUESTION])[0]
    assert (vectors.embed(COMPANY) @ question).max() < (vectors.embed(REFUND) @ question).min()


def test_the_defaults_are_the_frozen_ones():
    judge = EmbeddingJudge()
    assert FREEZE["thresholds"] == {"support_threshold": judge.support_threshold,
                                    "relevance_threshold": judge.relevance_threshold,
                                    "address_threshold": judge.address_threshold}
    assert FREEZE["rules"] == list(judge.rules) and FREEZE["checks"] == judge.checks
    assert FREEZE["checked_sentences"] == embedding.CHECKED_SENTENCES
    assert FREEZE["model"] == {"package": vectors.MODEL_PACKAGE, "version": vectors.model_version(),
                               "cache": FREEZE["model"]["cache"]}
    methods = {"faithfulness": "support", "context_relevancy": "context_relevance",
               "answer_relevancy": "answer_relevance"}
    assert {methods[task]: name for task, name in FREEZE["default_judge"].items()} == DEFAULT_JUDGES


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_dev_figures_equal_the_recorded_ones(task):
    judged = judge_figures.judged(task, "dev", EmbeddingJudge())
    recorded = FREEZE["dev"][task]["embedding"]
    assert len(judged) == recorded["n"] == FREEZE["tuned_on"]["n"][task]
    assert (judged["label"] == judged["judge"]).mean() == pytest.approx(recorded["accuracy"], abs=1e-12)


def test_the_default_judge_routes_each_question():
    default, lexical, embedded = DefaultJudge(), rml.LexicalJudge(), EmbeddingJudge()
    chosen = {"lexical": lexical, "embedding": embedded}
    statements, contexts = ["产品支持 30 天退款。"], ["产品支持 7 天退款。"]
    assert default.support(statements, contexts) == chosen[DEFAULT_JUDGES["support"]].support(statements, contexts)
    for method in ("context_relevance", "answer_relevance"):
        expected = getattr(chosen[DEFAULT_JUDGES[method]], method)(QUESTION, REFUND)
        assert getattr(default, method)(QUESTION, REFUND) == expected
