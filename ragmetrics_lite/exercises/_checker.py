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
* :class:`ValueExercise`: the learner types a number worked out by hand.

Every exercise has ``check(answer)``, ``hint()``, ``solution()`` (which print)
and ``evaluate(answer)`` (which returns a :class:`CheckResult` and prints
nothing). Printed text is deterministic: sets are shown sorted, floats with
``repr``, and no memory addresses or timings appear.
"""
from __future__ import annotations

import copy
import inspect
import math
import numbers
import random
import textwrap
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

__all__ = [
    "____",
    "Placeholder",
    "CheckResult",
    "Case",
    "Mistake",
    "Exercise",
    "FunctionExercise",
    "ValueExercise",
    "CORRECT",
    "INCORRECT",
    "NOT_ATTEMPTED",
]

CORRECT = "correct"
INCORRECT = "incorrect"
NOT_ATTEMPTED = "not attempted"

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
    """Common parts: a name, the task in a sentence or two, a hint, a solution, the notebook."""

    def __init__(self, name: str, prompt: str, *, hint: str, notebook: str = "") -> None:
        self.name = name
        self.prompt = textwrap.dedent(prompt).strip()
        self.notebook = notebook
        self._hint = textwrap.dedent(hint).strip()
        where = f"\n\nNotebook: {notebook}" if notebook else ""
        self.__doc__ = f"{self.prompt}{where}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    def evaluate(self, answer: Any) -> CheckResult:  # pragma: no cover - overridden
        raise NotImplementedError

    def check(self, answer: Any) -> None:
        """Print whether ``answer`` is correct (one short, deterministic result)."""
        print(self.evaluate(answer).message)

    def hint(self) -> None:
        """Print the hint."""
        print(f"Hint: {self._hint}")

    def solution_text(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def solution(self) -> None:
        """Print the reference solution."""
        print(self.solution_text())


def _not_attempted(why: str) -> CheckResult:
    message = f"Not attempted: {why} Replace ____ with your answer, then check again."
    return CheckResult(NOT_ATTEMPTED, message)


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
    shortest first. ``solution`` is the reference solution (a function, whose
    source is printed, or source text), with ``solution_imports`` printed above
    it. ``mistakes`` are known wrong implementations: when one reproduces
    every wrong value of an answer, its diagnosis is printed.

    >>> def double(x):
    ...     return 2 * x
    >>> q_double = FunctionExercise(
    ...     "q_double", "Write double(x), which returns twice x.",
    ...     reference=lambda x: 2 * x, argnames=("x",),
    ...     edge_cases=[(0,), (1,)], random_case=lambda rng: (rng.randint(-9, 9),), n_random=20,
    ...     hint="Multiply by 2.", solution=double,
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
    >>> q_double.solution()
    def double(x):
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
        hint: str,
        solution: Callable | str,
        random_case: Callable[[random.Random], tuple] | None = None,
        n_random: int = 200,
        seed: int | None = None,
        mistakes: Iterable[Mistake] = (),
        solution_imports: str = "",
        notebook: str = "",
        compare: Callable[[Any, Any], bool] = same,
    ) -> None:
        super().__init__(name, prompt, hint=hint, notebook=notebook)
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

    # -- cases ------------------------------------------------------------------------
    def format_inputs(self, case: Case) -> str:
        """The case's arguments as ``name=value`` pairs, deterministic."""
        return ", ".join(f"{n}={show(v)}" for n, v in zip(self.argnames, case.args))

    def random_cases(self) -> list[Case]:
        """The seeded random cases, shortest (as printed) first."""
        if self.random_case is None:
            return []
        rng = random.Random(self.seed)
        drawn = [Case(tuple(self.random_case(rng)), "a random case") for _ in range(self.n_random)]
        return sorted(drawn, key=lambda c: len(self.format_inputs(c)))  # stable: ties keep draw order

    def cases(self) -> list[Case]:
        """Every case in the order tried: edge cases, then random cases."""
        return self.edge_cases + self.random_cases()

    def expected(self, case: Case) -> Any:
        """The reference's value on a case."""
        return self.reference(*copy.deepcopy(case.args))

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
            return _not_attempted("the answer is still ____.")
        if not callable(answer):
            return CheckResult(
                INCORRECT,
                f"Incorrect: this exercise expects a function, got {type(answer).__name__} {show(answer)}. "
                "Pass the function itself, without calling it.",
            )
        cases = self.cases()
        expected = [self.expected(case) for case in cases]
        outcomes = [self._run(answer, case) for case in cases]
        for case, want, got in zip(cases, expected, outcomes):
            if got.kind == "placeholder":
                return _not_attempted(f"your function still returns ____ (for {self.format_inputs(case)}).")
            if got.kind == "not implemented":
                return _not_attempted("your function raises NotImplementedError.")
            if got.kind == "raised" and _uses_placeholder(answer):
                return _not_attempted(
                    f"your function still uses ____ and raised {_show_exception(got.value)}."
                )
        for case, want, got in zip(cases, expected, outcomes):
            if got.kind == "value" and self.compare(got.value, want):
                continue
            return CheckResult(INCORRECT, self._incorrect_message(case, want, got, cases, expected, outcomes))
        n_edge = len(self.edge_cases)
        return CheckResult(
            CORRECT,
            f"Correct: your function agrees with the reference on all {len(cases)} cases "
            f"({n_edge} edge cases, {len(cases) - n_edge} random).",
        )

    def _incorrect_message(self, case, want, got, cases, expected, outcomes) -> str:
        if got.kind == "raised":
            lines = [f"Incorrect: your function raised {_show_exception(got.value)}"]
        elif got.value is None:
            lines = ["Incorrect: your function returned None (is its return statement missing?)."]
        else:
            lines = ["Incorrect: your function gives a wrong value."]
        if case.label:
            lines.append(f"  case:     {case.label}")
        lines.append(f"  inputs:   {self.format_inputs(case)}")
        lines.append(f"  expected: {show(want)}")
        if got.kind == "value":
            lines.append(f"  got:      {show(got.value)}")
        diagnosis = self._diagnose(cases, expected, outcomes)
        if diagnosis:
            lines.append(f"  Diagnosis: {diagnosis.rstrip('.')}.")
        return "\n".join(lines)

    def _diagnose(self, cases: list[Case], expected: list, outcomes: list[_Outcome]) -> str | None:
        """The diagnosis of the known mistake that explains the answer best, if any.

        A mistake qualifies when it reproduces the answer on every case the
        answer gets wrong (the same value, or an exception where the answer
        raised one); among those, the one agreeing with the answer on the most
        cases wins, the earlier one on a tie.
        """
        wrong = [i for i, (want, got) in enumerate(zip(expected, outcomes))
                 if not (got.kind == "value" and self.compare(got.value, want))]
        best, best_score = None, -1
        for mistake in self.mistakes:
            theirs = {i: self._run(mistake.function, cases[i]) for i in wrong}
            if not all(_agrees(theirs[i], outcomes[i], self.compare) for i in wrong):
                continue
            score = sum(
                _agrees(theirs[i] if i in theirs else self._run(mistake.function, case), mine, self.compare)
                for i, (case, mine) in enumerate(zip(cases, outcomes))
            )
            if score > best_score:
                best, best_score = mistake, score
        return best.diagnosis if best else None

    def solution_text(self) -> str:
        """The reference solution as source a learner can paste (pure Python)."""
        if callable(self._solution):
            source = textwrap.dedent(inspect.getsource(self._solution))
        else:
            source = textwrap.dedent(self._solution)
        parts = [self.solution_imports, source.strip()] if self.solution_imports else [source.strip()]
        return "\n\n".join(parts)


def _agrees(theirs: _Outcome, mine: _Outcome, compare: Callable[[Any, Any], bool]) -> bool:
    if mine.kind == "value":
        return theirs.kind == "value" and compare(mine.value, theirs.value)
    return theirs.kind == mine.kind


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


class ValueExercise(Exercise):
    """An exercise whose answer is a number (or a tuple of numbers) worked out by hand.

    An answer passes when it is within ``10 ** -digits`` of ``expected`` (so
    0.643 and 0.642 both pass for 9/14 = 0.642857... with ``digits=3``). The
    expected value should come from ``ragmetrics_lite``. ``mistakes`` maps a
    typical wrong value to its diagnosis. The message on a wrong answer does
    not give the right value away; ``solution()`` does.

    >>> import ragmetrics_lite as rml
    >>> q_ap_by_hand = ValueExercise(
    ...     "q_ap_by_hand", "The relevant documents sit at ranks 1, 4 and 7 of ten: what is AP?",
    ...     expected=rml.average_precision({1, 4, 7}, list(range(1, 11))),
    ...     hint="Average the precision at each rank that holds a relevant document.",
    ...     solution="AP = (1/1 + 2/4 + 3/7) / 3 = 0.6429",
    ...     mistakes={3 / 7: "this is Precision@7, not AP"})
    >>> q_ap_by_hand.check(0.643)
    Correct: 0.643 (exact value 0.6428571428571429, checked to 3 decimal places).
    >>> q_ap_by_hand.check(0.4286)
    Incorrect: 0.4286 is not the value asked for (checked to 3 decimal places).
      Diagnosis: this is Precision@7, not AP.
    >>> q_ap_by_hand.check(____)
    Not attempted: the answer is still ____. Replace ____ with your answer, then check again.
    """

    def __init__(
        self,
        name: str,
        prompt: str,
        *,
        expected: float | Sequence[float],
        hint: str,
        solution: str,
        digits: int = 3,
        mistakes: Mapping[float, str] | Iterable[tuple[Any, str]] = (),
        notebook: str = "",
    ) -> None:
        super().__init__(name, prompt, hint=hint, notebook=notebook)
        self.expected = expected
        self.digits = digits
        self.tolerance = 10.0 ** -digits
        self.mistakes = list(mistakes.items() if isinstance(mistakes, Mapping) else mistakes)
        self._solution = textwrap.dedent(solution).strip()

    def _close(self, answer: Any, target: Any) -> bool:
        if isinstance(target, (list, tuple)):
            return (
                isinstance(answer, (list, tuple))
                and len(answer) == len(target)
                and all(self._close(a, t) for a, t in zip(answer, target))
            )
        if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
            return False
        return math.isfinite(answer) and abs(float(answer) - float(target)) <= self.tolerance * (1 + 1e-9)

    def _is_number_shaped(self, answer: Any) -> bool:
        def number(x: Any) -> bool:
            return isinstance(x, numbers.Real) and not isinstance(x, bool)

        if isinstance(self.expected, (list, tuple)):
            return (
                isinstance(answer, (list, tuple))
                and len(answer) == len(self.expected)
                and all(number(a) for a in answer)
            )
        return number(answer)

    def evaluate(self, answer: Any) -> CheckResult:
        """Check ``answer`` without printing; see the class docstring."""
        if answer is ____ or (isinstance(answer, (list, tuple)) and any(a is ____ for a in answer)):
            return _not_attempted("the answer is still ____.")
        places = f"{self.digits} decimal place{'s' if self.digits != 1 else ''}"
        if not self._is_number_shaped(answer):
            if isinstance(self.expected, (list, tuple)):
                shape = f"{len(self.expected)} numbers in a tuple"
            else:
                shape = "a number"
            return CheckResult(
                INCORRECT,
                f"Incorrect: this exercise expects {shape}, got {type(answer).__name__} {show(answer)}.",
            )
        if self._close(answer, self.expected):
            return CheckResult(
                CORRECT, f"Correct: {show(answer)} (exact value {show(self.expected)}, checked to {places})."
            )
        lines = [f"Incorrect: {show(answer)} is not the value asked for (checked to {places})."]
        for wrong, diagnosis in self.mistakes:
            if self._close(answer, wrong):
                lines.append(f"  Diagnosis: {diagnosis.rstrip('.')}.")
                break
        return CheckResult(INCORRECT, "\n".join(lines))

    def solution_text(self) -> str:
        return self._solution
