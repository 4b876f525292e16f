"""The self-check machinery behind every notebook exercise (modelled on Kaggle Learn's checkers).

An exercise prints one short result for a learner's answer:

* ``Correct ...`` when the answer agrees with the reference,
* ``Not attempted ...`` while the starter's placeholder ``____`` is still there,
* ``Incorrect ...`` otherwise, with the smallest failing case: the inputs, the
  expected value, what the answer gave and, when the answer behaves exactly
  like a known mistake, a one-line diagnosis.

Two kinds of exercise:

* :class:`FunctionExercise`: the learner writes a function. It is called on a
  fixed list of edge cases, smallest first, then on random cases from a seeded
  generator (tried shortest first), and compared with a reference function
  built on ``ragmetrics_lite``. The learner's function always gets deep copies
  of the inputs, so a function that mutates its arguments cannot spoil later
  cases.
* :class:`ChoiceExercise`: numbered multiple-choice questions; the learner
  gives a dict of letters, and each wrong letter earns its own diagnosis.

Every exercise has ``check(answer)``, ``hint()`` (a nudge), ``hint(2)`` (the
recipe), ``solution()`` (which print) and ``evaluate(answer)`` (which returns a
:class:`CheckResult` and prints nothing). The printed solution is Python that
runs: :meth:`Exercise.solution_answer` executes it and returns the answer it
defines. ``known_mistakes()`` lists each known wrong answer with the diagnosis
it earns, the same way for every kind, so one test module covers them all.
Printed text is deterministic: sets are shown sorted, floats with ``repr``, and
no memory addresses or timings appear.
"""
from __future__ import annotations

import copy
import inspect
import math
import numbers
import random
import textwrap
import traceback
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ._language import end, template
from ._language import text as _translated

__all__ = [
    "____",
    "Placeholder",
    "CheckResult",
    "Case",
    "Mistake",
    "Exercise",
    "FunctionExercise",
    "ChoiceExercise",
    "Question",
    "CORRECT",
    "INCORRECT",
    "NOT_ATTEMPTED",
]

CORRECT = "correct"
INCORRECT = "incorrect"
NOT_ATTEMPTED = "not attempted"

RANDOM_CASE = "a random case"  # the label of the seeded random cases (TEMPLATES["random case"])

REL_TOL = 1e-9
ABS_TOL = 1e-12


class Placeholder:
    """The blank a starter cell asks the learner to fill in. There is one instance, ``____``."""

    _instance: Placeholder | None = None

    def __new__(cls) -> Placeholder:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "____"

    def __bool__(self) -> bool:
        raise TypeError("____ is a blank to fill in, not a value: replace it with your code")


____ = Placeholder()


class CheckResult(NamedTuple):
    """What ``evaluate`` returns: ``status`` is "correct", "incorrect" or "not attempted"."""

    status: str
    message: str


class Case(NamedTuple):
    """One set of positional arguments for a function exercise, with an optional label."""

    args: tuple
    label: str = ""


class Mistake(NamedTuple):
    """A known wrong implementation and the one-line diagnosis printed when an answer behaves like it."""

    function: Callable
    diagnosis: str


# ----------------------------------------------------------------------------- formatting
def show(value: Any) -> str:
    """A deterministic, readable repr: sets sorted, floats as ``repr(float)``.

    >>> show({"d2", "d10", "d1"}), show(set()), show([0.5, 2, True]), show({"b": 1, "a": (1,)})
    ("{'d1', 'd10', 'd2'}", 'set()', '[0.5, 2, True]', "{'b': 1, 'a': (1,)}")
    """
    if isinstance(value, (bool, str, bytes)) or value is None:
        return repr(value)
    if isinstance(value, numbers.Integral):
        return repr(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, (set, frozenset)):
        if not value:
            return f"{type(value).__name__}()"
        inner = ", ".join(show(v) for v in sorted(value, key=_sort_key))
        return "{" + inner + "}" if isinstance(value, set) else "frozenset({" + inner + "})"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, tuple):
        inner = ", ".join(show(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return repr(value)


def _sort_key(value: Any) -> tuple:
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, repr(value))


def _show_exception(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def same(got: Any, expected: Any) -> bool:
    """Whether an answer equals the expected value: numbers to rel 1e-9 (abs 1e-12), containers item by item.

    >>> same(0.1 + 0.2, 0.3), same([1, 0.5], (1.0, 0.5)), same({"p": 1.0}, {"p": 1}), same(None, 0.0)
    (True, True, True, False)
    """
    if isinstance(expected, numbers.Real) and not isinstance(expected, bool):
        if isinstance(got, bool) or not isinstance(got, numbers.Real):
            return False
        got, expected = float(got), float(expected)
        if math.isnan(got) or math.isnan(expected):
            return False
        return math.isclose(got, expected, rel_tol=REL_TOL, abs_tol=ABS_TOL)
    if isinstance(expected, Mapping):
        return (
            isinstance(got, Mapping)
            and set(got) == set(expected)
            and all(same(got[key], expected[key]) for key in expected)
        )
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(got, (list, tuple))
            and len(got) == len(expected)
            and all(same(g, e) for g, e in zip(got, expected))
        )
    return type(got) is type(expected) and got == expected


# ----------------------------------------------------------------------------- exercises
class Exercise:
    """Common parts: a name, the task, two hints (a nudge, then the recipe), a solution, the notebook.

    ``notebook`` is the notebook's file stem (``"05_map"``); ``hints`` gives the
    levels ``hint()`` and ``hint(2)`` print, the first a nudge that does not
    give the algorithm away, the last the recipe.
    """

    answer_name = "answer"  # the name the printed solution binds its answer to

    def __init__(self, name: str, prompt: str, *, hints: Sequence[str], notebook: str = "") -> None:
        if isinstance(hints, str) or not hints:
            raise ValueError(f"{name}: hints is a sequence of levels, a nudge first and the recipe last")
        self.name = name
        self.prompt = textwrap.dedent(prompt).strip()
        self.notebook = f"notebooks/{notebook}.ipynb" if notebook else ""
        self.hints = tuple(textwrap.dedent(h).strip() for h in hints)
        where = f"\n\nNotebook: {self.notebook}" if notebook else ""
        self.__doc__ = f"{self.prompt}{where}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    def texts(self) -> list[tuple[str, str]]:
        """(field, English) of every text the exercise prints, which the Chinese catalogue translates."""
        return [("prompt", self.prompt), *((f"hint {n}", h) for n, h in enumerate(self.hints, start=1))]

    def _text(self, field: str, english: str) -> str:
        """A text of ``texts`` in the language asked for (_language: Chinese only where still current)."""
        return _translated(self.name, f"{self.name} {field}", english)

    def evaluate(self, answer: Any) -> CheckResult:  # pragma: no cover - overridden
        raise NotImplementedError

    def check(self, answer: Any) -> None:
        """Print whether ``answer`` is correct (one short, deterministic result)."""
        print(self.evaluate(answer).message)

    def hint(self, level: int = 1) -> None:
        """Print hint ``level``: 1 nudges, the last gives the recipe."""
        n = len(self.hints)
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= n:
            print(template("hint level one" if n == 1 else "hint level", count=n, level=repr(level)))
            return
        more = template("hint more", name=self.name, level=level + 1) if level < n else ""
        hint = self._text(f"hint {level}", self.hints[level - 1])
        print(template("hint", level=level, count=n, hint=hint, more=more))

    def solution_text(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def solution(self) -> None:
        """Print the reference solution, Python that runs and passes ``check``."""
        print(self.solution_text())

    def solution_answer(self) -> Any:
        """Run the printed solution and return the answer it defines (``answer_name``)."""
        namespace: dict = {}
        exec(compile(self.solution_text(), f"<{self.name} solution>", "exec"), namespace)
        return namespace[self.answer_name]

    @property
    def reference_answer(self) -> Any:  # pragma: no cover - overridden
        """An answer that passes (the reference solution itself)."""
        raise NotImplementedError

    def known_mistakes(self) -> list[tuple[Any, str]]:  # pragma: no cover - overridden
        """Each known wrong answer with the diagnosis it earns."""
        raise NotImplementedError

    def describe_answer(self) -> str:  # pragma: no cover - overridden
        """What the learner gives, in a few words (for the package's table of exercises)."""
        raise NotImplementedError


def _not_attempted(why: str) -> CheckResult:
    return CheckResult(NOT_ATTEMPTED, template("not attempted", why=why))


class _Outcome(NamedTuple):
    kind: str  # "value", "raised", "placeholder", "not implemented"
    value: Any = None


class FunctionExercise(Exercise):
    """An exercise whose answer is a function, checked against a reference on edge and random cases.

    ``reference`` computes the expected value (build it on ``ragmetrics_lite``,
    never on a second copy of the formula); ``argnames`` name the positional
    arguments in messages; ``edge_cases`` are tried first, in the order given
    (put the smallest first), then ``n_random`` cases drawn by
    ``random_case(rng)`` from a ``random.Random`` seeded from the name, tried
    shortest first. ``solution`` is the reference solution, a function whose
    source is printed with ``solution_imports`` above it and the function
    renamed ``solution`` (an exercise module names it ``reference_solution``:
    the module's ``solution`` is the method that prints it). ``mistakes``
    are known wrong implementations: when one reproduces every wrong value of
    an answer (or raises the same exception type where the answer raises), its
    diagnosis is printed. An answer that raises is shown the exact inputs, the
    exception and the line of its own code that raised.

    >>> def double(x):
    ...     return 2 * x
    >>> q_double = FunctionExercise(
    ...     "q_double", "Write double(x), which returns twice x.",
    ...     reference=lambda x: 2 * x, argnames=("x",),
    ...     edge_cases=[(0,), (1,)], random_case=lambda rng: (rng.randint(-9, 9),), n_random=20,
    ...     hints=("What does twice mean?", "Multiply by 2."), solution=double,
    ...     mistakes=[Mistake(lambda x: x * x, "this squares x")])
    >>> q_double.check(lambda x: x + x)
    Correct: your function agrees with the reference on all 22 cases (2 edge cases, 20 random).
    >>> q_double.check(lambda x: x * x)
    Incorrect: your function gives a wrong value.
      inputs:   x=1
      expected: 2
      got:      1
      Diagnosis: this squares x.
    >>> q_double.check(____)
    Not attempted: the answer is still ____. Replace ____ with your answer, then check again.
    >>> q_double.evaluate(lambda x: ____).status
    'not attempted'
    >>> q_double.hint()
    Hint 1 of 2: What does twice mean? (More: q_double.hint(2).)
    >>> q_double.solution()
    def solution(x):
        return 2 * x
    """

    def __init__(
        self,
        name: str,
        prompt: str,
        *,
        reference: Callable,
        argnames: Sequence[str],
        edge_cases: Iterable[Case | tuple],
        hints: Sequence[str],
        solution: Callable,
        random_case: Callable[[random.Random], tuple] | None = None,
        n_random: int = 200,
        seed: int | None = None,
        mistakes: Iterable[Mistake] = (),
        solution_imports: str = "",
        notebook: str = "",
        compare: Callable[[Any, Any], bool] = same,
    ) -> None:
        super().__init__(name, prompt, hints=hints, notebook=notebook)
        self.reference = reference
        self.argnames = tuple(argnames)
        self.edge_cases = [c if isinstance(c, Case) else Case(tuple(c)) for c in edge_cases]
        for case in self.edge_cases:
            if len(case.args) != len(self.argnames):
                raise ValueError(f"{name}: case {case.args!r} does not have {len(self.argnames)} arguments")
        self.random_case = random_case
        self.n_random = n_random if random_case is not None else 0
        self.seed = zlib.crc32(name.encode("utf-8")) if seed is None else seed
        self.mistakes = list(mistakes)
        self._solution = solution
        self.solution_imports = solution_imports.strip()
        self.compare = compare
        self._checked: tuple[list[Case], list] | None = None  # see _checked_cases
        self._mistake_runs: dict[Callable, dict[int, _Outcome]] = {}  # see _mistake_run

    # -- cases ------------------------------------------------------------------------
    def format_inputs(self, case: Case) -> str:
        """The case's arguments as ``name=value`` pairs, deterministic."""
        return ", ".join(f"{n}={show(v)}" for n, v in zip(self.argnames, case.args))

    def random_cases(self) -> list[Case]:
        """The seeded random cases, shortest (as printed) first."""
        if self.random_case is None:
            return []
        rng = random.Random(self.seed)
        drawn = [Case(tuple(self.random_case(rng)), RANDOM_CASE) for _ in range(self.n_random)]
        return sorted(drawn, key=lambda c: len(self.format_inputs(c)))  # stable: ties keep draw order

    def cases(self) -> list[Case]:
        """Every case in the order tried: edge cases, then random cases."""
        return self.edge_cases + self.random_cases()

    def expected(self, case: Case) -> Any:
        """The reference's value on a case."""
        return self.reference(*copy.deepcopy(case.args))

    def _checked_cases(self) -> tuple[list[Case], list]:
        """The cases and the reference's values on them, as ``evaluate`` uses them: computed at the
        first check and kept, since the declaration fixes both (``cases`` and ``expected`` compute
        afresh for a caller, who may change what they return). Never shown to the answer: each run
        gets its own copy of a case's arguments."""
        if self._checked is None:
            cases = self.cases()
            self._checked = cases, [self.expected(case) for case in cases]
        return self._checked

    def _mistake_run(self, mistake: Mistake, index: int) -> _Outcome:
        """A known mistake on case ``index`` of ``_checked_cases``, run once and kept: the diagnosis
        of every wrong answer compares the answer with the same runs."""
        runs = self._mistake_runs.setdefault(mistake.function, {})
        if index not in runs:
            runs[index] = self._run(mistake.function, self._checked_cases()[0][index])
        return runs[index]

    # -- evaluation -------------------------------------------------------------------
    @staticmethod
    def _run(function: Callable, case: Case) -> _Outcome:
        try:
            value = function(*copy.deepcopy(case.args))
        except NotImplementedError:
            return _Outcome("not implemented")
        except Exception as exc:  # the learner's code may raise anything
            return _Outcome("raised", exc)
        if value is ____:
            return _Outcome("placeholder")
        return _Outcome("value", value)

    def evaluate(self, answer: Any) -> CheckResult:
        """Check ``answer`` without printing; see the class docstring."""
        if answer is ____:
            return _not_attempted(template("answer blank"))
        if not callable(answer):
            return CheckResult(INCORRECT, template("not a function", kind=type(answer).__name__, value=show(answer)))
        cases, expected = self._checked_cases()
        outcomes = [self._run(answer, case) for case in cases]
        for case, want, got in zip(cases, expected, outcomes):
            if got.kind == "placeholder":
                return _not_attempted(template("returns blank", inputs=self.format_inputs(case)))
            if got.kind == "not implemented":
                return _not_attempted(template("not implemented"))
            if got.kind == "raised" and _uses_placeholder(answer):
                return _not_attempted(template("uses blank", error=_show_exception(got.value)))
        for case, want, got in zip(cases, expected, outcomes):
            if got.kind == "value" and self.compare(got.value, want):
                continue
            return CheckResult(
                INCORRECT, self._incorrect_message(answer, case, want, got, cases, expected, outcomes)
            )
        n_edge = len(self.edge_cases)
        return CheckResult(CORRECT, template("function correct", count=len(cases), edge=n_edge,
                                             random=len(cases) - n_edge))

    def _incorrect_message(self, answer, case, want, got, cases, expected, outcomes) -> str:
        if got.kind == "raised":
            lines = [template("raised", error=_show_exception(got.value))]
            # the label says what the case is about, which need not be why the answer raised
        elif got.value is None:
            lines = [template("returned None")]
        else:
            lines = [template("wrong value")]
        if case.label:
            lines.append(template("case", label=self._label(case)))
        lines.append(template("inputs", inputs=self.format_inputs(case)))
        lines.append(template("expected", value=show(want)))
        if got.kind == "value":
            lines.append(template("got", value=show(got.value)))
        elif got.kind == "raised" and _raising_line(got.value, answer):
            lines.append(template("at line", line=_raising_line(got.value, answer)))
        diagnosis = self._diagnose(cases, expected, outcomes)
        if diagnosis:
            lines.append(template("diagnosis", diagnosis=end(diagnosis)))
        return "\n".join(lines)

    def _label(self, case: Case) -> str:
        """A case's label in the language asked for (edge cases are numbered from 1 as declared)."""
        number = next((n for n, edge in enumerate(self.edge_cases, start=1) if edge is case), None)
        if number is None:
            return template("random case") if case.label == RANDOM_CASE else case.label
        return self._text(f"case {number}", case.label)

    def _diagnose(self, cases: list[Case], expected: list, outcomes: list[_Outcome]) -> str | None:
        """The diagnosis of the known mistake that explains the answer best, if any.

        A mistake qualifies when it reproduces the answer on every case the
        answer gets wrong (the same value, or an exception of the same type
        where the answer raised one); among those, the one agreeing with the answer on the most
        cases wins, the earlier one on a tie.
        """
        wrong = [i for i, (want, got) in enumerate(zip(expected, outcomes))
                 if not (got.kind == "value" and self.compare(got.value, want))]
        best, best_score = None, -1
        for mistake in self.mistakes:  # ``cases`` are those of _checked_cases, as evaluate passes them
            if not all(_agrees(self._mistake_run(mistake, i), outcomes[i], self.compare) for i in wrong):
                continue
            score = sum(_agrees(self._mistake_run(mistake, i), mine, self.compare) for i, mine in enumerate(outcomes))
            if score > best_score:
                best, best_score = mistake, score
        if best is None:
            return None
        number = next(n for n, mistake in enumerate(self.mistakes, start=1) if mistake is best)
        return self._text(f"mistake {number}", best.diagnosis)

    def solution_text(self) -> str:
        """The reference solution as source a learner can paste (pure Python), named ``solution``."""
        source = textwrap.dedent(inspect.getsource(self._solution)).strip()
        source = source.replace(f"def {self._solution.__name__}(", "def solution(", 1)
        return f"{self.solution_imports}\n\n{source}" if self.solution_imports else source

    def solution_answer(self) -> Callable:
        """Run the printed solution and return the one function it defines."""
        namespace: dict = {}
        exec(compile(self.solution_text(), f"<{self.name} solution>", "exec"), namespace)
        functions = [v for v in namespace.values() if inspect.isfunction(v)]
        if len(functions) != 1:
            raise ValueError(f"{self.name}: the printed solution defines {len(functions)} functions, not 1")
        return functions[0]

    @property
    def reference_answer(self) -> Callable:
        return self._solution

    def known_mistakes(self) -> list[tuple[Callable, str]]:
        return [(m.function, m.diagnosis) for m in self.mistakes]

    def texts(self) -> list[tuple[str, str]]:
        labels = [(f"case {n}", case.label) for n, case in enumerate(self.edge_cases, start=1) if case.label]
        diagnoses = [(f"mistake {n}", mistake.diagnosis) for n, mistake in enumerate(self.mistakes, start=1)]
        return [*super().texts(), *labels, *diagnoses]

    def describe_answer(self) -> str:
        return f"a function ({', '.join(self.argnames)})"


def _agrees(theirs: _Outcome, mine: _Outcome, compare: Callable[[Any, Any], bool]) -> bool:
    if mine.kind == "value":
        return theirs.kind == "value" and compare(mine.value, theirs.value)
    if mine.kind == "raised":
        return theirs.kind == "raised" and type(theirs.value) is type(mine.value)
    return theirs.kind == mine.kind


def _raising_line(exc: BaseException, function: Callable) -> str:
    """The source line of ``function``'s own file where ``exc`` was raised ("" when unknown)."""
    code = getattr(function, "__code__", None)
    if code is None:
        return ""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == code.co_filename]
    return (frames[-1].line or "").strip() if frames else ""


def _uses_placeholder(function: Callable) -> bool:
    """Whether the function's code (nested code included) refers to the global name ``____``."""
    code = getattr(function, "__code__", None)
    stack = [code] if code is not None else []
    while stack:
        current = stack.pop()
        if "____" in current.co_names:
            return True
        stack.extend(c for c in current.co_consts if inspect.iscode(c))
    return False


class Question(NamedTuple):
    """One multiple-choice question: its text, lettered choices, the right letter and why, and
    for every wrong letter a diagnosis saying what that choice would miss."""

    text: str
    choices: Mapping[str, str]
    answer: str
    why: str
    misses: Mapping[str, str]


class ChoiceExercise(Exercise):
    """Numbered multiple-choice questions; the answer is a dict ``{number: letter}``.

    Letters are case-insensitive. A question still at ``____`` is not
    attempted; a wrong letter earns the diagnosis declared for it; a number
    that is not a question, or a letter that is not a choice, gets a message
    saying so. ``show()`` prints the questions.

    >>> q_pick = ChoiceExercise(
    ...     "q_pick", "Pick the metric.",
    ...     questions=[Question("Which metric ignores everything below the first relevant document?",
    ...                         {"A": "MRR", "B": "MAP"}, "A", "MRR scores 1/rank of the first one only",
    ...                         {"B": "MAP averages the precision at every relevant document"})],
    ...     hints=("Think of the first hit.", "Which one stops at the first relevant document?"))
    >>> q_pick.show()
    Pick the metric.
    <BLANKLINE>
    1. Which metric ignores everything below the first relevant document?
       A. MRR
       B. MAP
    >>> q_pick.check({1: "b"})
    Incorrect: 1 of 1 answers is wrong.
      1. B (MAP) is not it.
         Diagnosis: MAP averages the precision at every relevant document.
    >>> q_pick.check({1: "A"})
    Correct: all 1 answers are right.
      1. A (MRR): MRR scores 1/rank of the first one only.
    >>> q_pick.check({1: ____})
    Not attempted: 0 of 1 questions answered. Replace ____ with your answer, then check again.
    """

    answer_name = "answers"

    def __init__(self, name: str, prompt: str, *, questions: Sequence[Question], hints: Sequence[str],
                 notebook: str = "") -> None:
        super().__init__(name, prompt, hints=hints, notebook=notebook)
        self.questions = {number: q for number, q in enumerate(questions, start=1)}
        for number, q in self.questions.items():
            letters = set(q.choices)
            if not all(len(c) == 1 and c.isupper() for c in letters) or q.answer not in letters:
                raise ValueError(f"{name}: question {number} needs capital-letter choices holding its answer")
            if set(q.misses) != letters - {q.answer}:
                raise ValueError(f"{name}: question {number} needs a diagnosis for each wrong letter")

    def show(self) -> None:
        """Print the questions and their lettered choices."""
        lines = [self._text("prompt", self.prompt)]
        for number, q in self.questions.items():
            lines += ["", f"{number}. {self._text(f'question {number}', q.text)}",
                      *(f"   {c}. {self._choice(number, c)}" for c in q.choices)]
        print("\n".join(lines))

    def texts(self) -> list[tuple[str, str]]:
        found = super().texts()
        for number, q in self.questions.items():
            found += [(f"question {number}", q.text), *((f"question {number} choice {c}", label)
                                                        for c, label in q.choices.items())]
            found += [(f"question {number} why", q.why), *((f"question {number} miss {c}", miss)
                                                           for c, miss in q.misses.items())]
        return found

    def _choice(self, number: int, letter: str) -> str:
        return self._text(f"question {number} choice {letter}", self.questions[number].choices[letter])

    def _number(self, key: Any) -> int | None:
        if isinstance(key, str) and key.strip().isdigit():
            key = int(key)
        return key if isinstance(key, int) and not isinstance(key, bool) and key in self.questions else None

    def evaluate(self, answers: Any) -> CheckResult:
        """Check ``answers`` without printing; see the class docstring."""
        if answers is ____:
            return _not_attempted(template("answers blank"))
        count = len(self.questions)
        if not isinstance(answers, Mapping):
            return CheckResult(INCORRECT, template("not a dict", count=count, kind=type(answers).__name__))
        given: dict[int, Any] = {}
        for key, letter in answers.items():
            number = self._number(key)
            if number is None:
                return CheckResult(INCORRECT, template("no question", key=show(key), count=count))
            given[number] = letter
        lines, wrong, answered = [], 0, 0
        for number, q in self.questions.items():
            letter = given.get(number, ____)
            if letter is ____:
                continue
            answered += 1
            choice = letter.strip().upper() if isinstance(letter, str) else None
            if choice not in q.choices:
                return CheckResult(INCORRECT, template("not a choice", number=number, letter=show(letter),
                                                       choices=", ".join(q.choices)))
            label = self._choice(number, choice)
            if choice == q.answer:
                why = end(self._text(f"question {number} why", q.why))
                lines.append(template("choice right", number=number, letter=choice, choice=label, why=why))
            else:
                wrong += 1
                diagnosis = end(self._text(f"question {number} miss {choice}", q.misses[choice]))
                lines += [template("choice wrong", number=number, letter=choice, choice=label),
                          template("choice diagnosis", diagnosis=diagnosis)]
        if wrong:
            lines.insert(0, template("choices wrong one" if wrong == 1 else "choices wrong", wrong=wrong, count=count))
            return CheckResult(INCORRECT, "\n".join(lines))
        if answered < count:
            return _not_attempted(template("choices answered", answered=answered, count=count))
        return CheckResult(CORRECT, "\n".join([template("choices correct", count=count), *lines]))

    def solution_text(self) -> str:
        rows = [f"    {n}: {q.answer!r},  # {q.choices[q.answer]}" for n, q in self.questions.items()]
        return "\n".join(["answers = {", *rows, "}"])

    @property
    def reference_answer(self) -> dict[int, str]:
        return {number: q.answer for number, q in self.questions.items()}

    def known_mistakes(self) -> list[tuple[dict[int, str], str]]:
        return [({**self.reference_answer, number: letter}, diagnosis)
                for number, q in self.questions.items() for letter, diagnosis in q.misses.items()]

    def describe_answer(self) -> str:
        return f"a letter for each of {len(self.questions)} questions"
