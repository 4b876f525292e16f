"""q00_which_metric: which metric catches which RAG failure, for ``notebooks/00_rag_evaluation_map.ipynb``.

Four failures of a RAG system, each with four metrics of the course to choose
from. Retrieval metrics (Recall@K, Hit Rate@K, MRR, NDCG) judge the ranked
list against labelled relevant documents and never read the answer; BLEU and
ROUGE compare the answer's words with a reference answer; the RAG triad judges
the context against the question (context relevancy), the answer's claims
against the context (faithfulness) and the answer against the question (answer
relevancy).

>>> q00_which_metric.evaluate({1: "c", 2: "a", 3: "B", 4: "D"}).status
'correct'
>>> from ragmetrics_lite.course.exercises import ____
>>> q00_which_metric.check({1: "C", 2: "b", 3: ____, 4: ____})
Incorrect: 1 of 4 answers is wrong.
  1. C (Recall@3): Recall@3 = 0: the one needed document is not among the 3 chunks the prompt
     receives.
  2. B (Hit Rate@5) is not it.
     Diagnosis: Hit Rate@5 is 1 as soon as one relevant document is in the top 5; it cannot tell
     one of four from four of four.
"""
from __future__ import annotations

from ._checker import ChoiceExercise, Question

q00_which_metric = ChoiceExercise(
    "q00_which_metric",
    "Which metric catches this failure? Give one letter for each question.",
    notebook="00_rag_evaluation_map",
    questions=[
        Question(
            "The one document that answers the question is retrieved at rank 7, but only the top 3 "
            "retrieved chunks go into the prompt.",
            {"A": "Recall@10", "B": "Hit Rate@10", "C": "Recall@3", "D": "faithfulness"},
            "C",
            "Recall@3 = 0: the one needed document is not among the 3 chunks the prompt receives",
            {
                "A": "Recall@10 = 1: rank 7 is inside the top 10, so it counts the document as found and "
                "cannot see that the prompt takes only the top 3",
                "B": "Hit Rate@10 scores this query 1, a hit within the top 10; the cut-off that matters "
                "here is 3",
                "D": "faithfulness checks the answer's claims against the retrieved context; an answer that "
                "sticks to the 3 unhelpful chunks, or says it does not know, is perfectly faithful",
            },
        ),
        Question(
            "A question needs four documents to be answered fully (it compares four products); the top 5 "
            "holds only one of them, at rank 1.",
            {"A": "Recall@5", "B": "Hit Rate@5", "C": "MRR", "D": "BLEU/ROUGE"},
            "A",
            "Recall@5 = 1/4: three of the four needed documents are missing from the top 5",
            {
                "B": "Hit Rate@5 is 1 as soon as one relevant document is in the top 5; it cannot tell one "
                "of four from four of four",
                "C": "MRR is 1.0 here, since the first relevant document is at rank 1; it looks at the first "
                "relevant document only",
                "D": "BLEU and ROUGE compare the answer's words with a reference answer and never look at the "
                "retrieved documents, so they cannot say that three needed documents are missing",
            },
        ),
        Question(
            "The answer states a price that appears in none of the retrieved chunks.",
            {"A": "context relevancy", "B": "faithfulness", "C": "answer relevancy", "D": "NDCG"},
            "B",
            "faithfulness is the share of the answer's claims supported by the retrieved context, and the "
            "price is supported by none of it",
            {
                "A": "context relevancy judges whether the retrieved chunks bear on the question; they can "
                "be fully on topic while the answer adds a price of its own",
                "C": "answer relevancy judges whether the answer addresses the question; an answer with an "
                "invented price still addresses it",
                "D": "NDCG judges the order of the retrieved documents against graded labels; it never "
                "reads the answer",
            },
        ),
        Question(
            "Asked for the refund deadline, the system retrieves the right policy page, which also lists "
            "shipping times, and answers fluently with the shipping times.",
            {"A": "faithfulness", "B": "BLEU/ROUGE", "C": "Precision@K", "D": "answer relevancy"},
            "D",
            "answer relevancy judges whether the answer addresses the question asked, and this one "
            "addresses another question",
            {
                "A": "faithfulness stays high: every claim about shipping times is supported by the context; "
                "it never compares the answer with the question",
                "B": "BLEU and ROUGE count words shared with a reference answer; fluent text on a neighbouring "
                "topic shares many of them, and the score says nothing about whether the question was answered",
                "C": "Precision@K is high, since the policy page retrieved is relevant; it judges the "
                "retrieved documents and never reads the answer",
            },
        ),
    ],
    hints=(
        "For each failure ask what went wrong first: the ranked list, the answer against the context, "
        "or the answer against the question. Then ask which metric looks at exactly that.",
        "A rank beyond the prompt's cut-off shows in a recall cut at that cut-off; missing documents show "
        "in recall, not in hit rate or MRR; a claim the context does not support lowers faithfulness; an "
        "answer to another question lowers answer relevancy.",
    ),
)

check = q00_which_metric.check
hint = q00_which_metric.hint
solution = q00_which_metric.solution
show = q00_which_metric.show
