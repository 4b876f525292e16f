"""The fast engine: an optimisation of the named per-query functions, tested equal to them on random inputs.

Nothing here defines a metric. Each function computes, for a whole batch at once and with numpy,
what a function a learner reads computes for one item:

* ``ranking``: the rank in trec_eval's order and the grade of every retrieved judged document of
  every query, which the retrieval per-query functions (``ragmetrics_lite.retrieval.metrics``)
  get from their ``retrieved`` list and ``relevant`` judgments;
* ``kernels``: one kernel per retrieval metric over those ranks, each equal to the per-query function
  its docstring names (``recall`` to ``recall_at_k``, ...);
* ``text``: n-gram counts, BLEU's per-segment statistics and the longest common subsequence for a
  whole batch of token lists, equal per item to ``ragmetrics_lite.text.bleu``'s segment statistics
  and to ``rouge_n``/``rouge_l``
  (``corpus_bleu`` sums the statistics as sacrebleu does; ``rouge_scores`` uses the LCS).

``tests/test_metric_table.py`` checks every kernel against its per-query function on random batches
with ties, negative grades, unjudged documents and missing queries, and ``tests/test_speed_evaluate.py``
checks that every input form and row order gives the same scores; ``tests/test_bleu.py`` and
``tests/test_rouge.py`` check the text engine against the per-item functions. The engine imports nothing from
the modules that call it (``retrieval.evaluate``, ``retrieval.table``).
"""
