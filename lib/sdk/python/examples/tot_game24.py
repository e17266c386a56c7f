"""A small Tree-of-Thoughts breadth-first search on the Game of 24, streamed live to Arborist.

The search of the Tree-of-Thoughts paper (Yao et al. 2023) on its Game of 24 task, with the language model replaced
by computation so it runs anywhere: each state is the numbers left (with how each was made); "propose" lists the
legal moves (two numbers combined by + - * /), "value" judges each new state sure / likely / impossible as the
paper's prompt does (here by trying every way to finish, for three numbers or fewer), and a closeness heuristic breaks
ties. Breadth-first: at each of the three depths every kept state proposes up to --proposals moves, all are valued,
the best --beam are kept and the rest are pruned by the search. The answer is checked by evaluating it.

Streams everything as it happens: nodes with the thought, a 0..1 score and the named scores (value, closeness), the
numbers left as metadata, one (computed) "model call" per proposal and per valuation, the search's prunes, and the
verified answer. Steering from the page works through the client's built-in handling: pause, resume, step and abort
(checkpoint() before each expansion) and prune (is_pruned() before expanding a node).

    python3 lib/sdk/python/examples/tot_game24.py --server http://127.0.0.1:3000 --numbers "4 9 10 13" --delay 0.3

Standard library only. Prints the run's page, then the answer.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import os
import sys
import time
from fractions import Fraction
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from arborist_client import BUILTIN_COMMANDS, Arborist  # noqa: E402

# the paper's value prompt maps sure / likely / impossible to these numbers
VALUE = {"sure": 20.0, "likely": 1.0, "impossible": 0.001}
OPS = ("+", "-", "*", "/")

State = List[Tuple[Fraction, str]]  # the numbers left, each with the expression that made it


def fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def combine(a: Fraction, b: Fraction, op: str) -> Optional[Fraction]:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a / b if b != 0 else None


def propose(state: State) -> List[Tuple[str, State]]:
    """Every legal move: two numbers combined (- as larger minus smaller, / both ways), as (thought, next state)."""
    moves, seen = [], set()
    for i, j in itertools.permutations(range(len(state)), 2):
        (a, ea), (b, eb) = state[i], state[j]
        for op in OPS:
            if op in "+*" and i > j:
                continue  # commutative: once
            if op == "-" and a < b:
                continue  # larger minus smaller, as the paper's proposals do: no negative numbers
            value = combine(a, b, op)
            if value is None:
                continue
            rest = [state[k] for k in range(len(state)) if k not in (i, j)]
            nxt = rest + [(value, f"({ea} {op} {eb})")]
            key = tuple(sorted(fmt(v) for v, _ in nxt))
            if key in seen:
                continue
            seen.add(key)
            moves.append((f"{fmt(a)} {op} {fmt(b)} = {fmt(value)} (left: {' '.join(key)})", nxt))
    return moves


def solvable(values: List[Fraction]) -> bool:
    if len(values) == 1:
        return values[0] == 24
    for i, j in itertools.permutations(range(len(values)), 2):
        rest = [values[k] for k in range(len(values)) if k not in (i, j)]
        for op in OPS:
            v = combine(values[i], values[j], op)
            if v is not None and solvable(rest + [v]):
                return True
    return False


def value_of(state: State) -> Tuple[str, float]:
    """The paper's judgement of a state (sure / likely / impossible) and a closeness to 24 in 0..1."""
    values = [v for v, _ in state]
    closeness = max(1.0 / (1.0 + abs(float(v) - 24.0)) for v in values)
    if len(values) <= 3:
        return ("sure" if solvable(values) else "impossible"), closeness
    return "likely", closeness


def rank(state: State) -> Tuple[float, float]:
    judgement, closeness = value_of(state)
    return VALUE[judgement], closeness


def check(expression: str, numbers: List[int]) -> Tuple[bool, str]:
    """Evaluates the answer's arithmetic (exactly) and checks it uses each given number once."""
    used: List[int] = []

    def ev(node: ast.AST) -> Fraction:
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div):
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
            return left / right
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            used.append(node.value)
            return Fraction(node.value)
        raise ValueError("only numbers and + - * / are allowed")

    try:
        result = ev(ast.parse(expression, mode="eval").body)
    except (ValueError, SyntaxError, ZeroDivisionError) as error:
        return False, f"cannot evaluate: {error}"
    if sorted(used) != sorted(numbers):
        return False, f"uses {sorted(used)}, not each of {sorted(numbers)} once"
    if result != 24:
        return False, f"{expression} = {fmt(result)}, not 24"
    return True, f"{expression} = 24, using each of {' '.join(map(str, numbers))} once"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=os.environ.get("ARBORIST_SERVER", "http://127.0.0.1:3000"))
    parser.add_argument("--api-key", default=os.environ.get("ARBORIST_API_KEY"))
    parser.add_argument("--numbers", default="4 9 10 13")
    parser.add_argument("--beam", type=int, default=5, help="states kept per depth (the paper's b)")
    parser.add_argument("--proposals", type=int, default=8, help="moves proposed per state at most")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds per expansion, to watch it live")
    args = parser.parse_args()
    numbers = [int(n) for n in args.numbers.split()]
    goal = " ".join(map(str, numbers))

    arborist = Arborist(args.server, api_key=args.api_key)
    run = arborist.start_run(
        goal,
        task="game24",
        model="computed (no model)",
        agent="tot_game24.py",
        config={"algorithm": "ToT BFS", "beam": args.beam, "proposals": args.proposals, "depth": 3},
        commands=BUILTIN_COMMANDS,
    )
    ready = run.wait_ready(10)
    print(f"Run:    {ready['url'] if ready else '(the server has not answered yet; the search goes on)'}", flush=True)

    run.node("root", None, thought=goal, metadata={"left": goal})
    frontier: List[Tuple[str, State]] = [("root", [(Fraction(n), str(n)) for n in numbers])]
    answer: Optional[Tuple[str, str]] = None
    ids = itertools.count(1)

    for depth in range(1, 4):
        candidates: List[Tuple[float, str, State]] = []
        for parent, state in frontier:
            if not run.checkpoint():
                break
            if run.is_pruned(parent):
                continue
            run.start(parent, "expand")
            # the proposer's best guesses first (an LLM would order them by its own judgement): by value, then closeness
            moves = sorted(propose(state), key=lambda m: tuple(-v for v in rank(m[1])))[: args.proposals]
            prompt = f"Input: {' '.join(fmt(v) for v, _ in state)}\nPossible next steps:"
            run.call(parent, purpose="generate", model="computed", latency_ms=0,
                     messages=[{"role": "user", "content": prompt}],
                     response="\n".join(thought for thought, _ in moves),
                     input_tokens=len(prompt) // 4, output_tokens=sum(len(t) for t, _ in moves) // 4)
            for thought, nxt in moves:
                node_id = f"d{depth}-{next(ids)}"
                judgement, closeness = value_of(nxt)
                score = min(1.0, VALUE[judgement] / 20.0 * 0.9 + closeness * 0.1)
                run.node(node_id, parent, thought=thought, score=round(score, 4),
                         scores={"value": VALUE[judgement], "closeness": round(closeness, 4)},
                         metadata={"left": " ".join(fmt(v) for v, _ in nxt), "judgement": judgement,
                                   "depth": depth})
                run.call(node_id, purpose="evaluate", model="computed",
                         messages=[{"role": "user", "content": f"Evaluate if given numbers can reach 24: "
                                    f"{' '.join(fmt(v) for v, _ in nxt)}"}],
                         response=judgement, input_tokens=20, output_tokens=2)
                candidates.append((score, node_id, nxt))
            run.complete(parent, f"{len(moves)} moves proposed")
            if args.delay:
                time.sleep(args.delay)
        if run.aborted_by:
            break
        candidates.sort(key=lambda c: -c[0])
        kept, dropped = candidates[: args.beam], candidates[args.beam:]
        for _, node_id, _ in dropped:
            run.prune(node_id, f"outside the beam of {args.beam} at depth {depth}")
        frontier = [(node_id, nxt) for _, node_id, nxt in kept]
        if depth == 3:
            for _, node_id, nxt in kept:
                (value, expression), = nxt
                if value == 24 and not run.is_pruned(node_id):
                    answer = (node_id, expression[1:-1] if expression.startswith("(") else expression)
                    break

    if answer is None:
        summary = run.finish(output="", success=False,
                             reason="aborted" if run.aborted_by else "frontier-empty",
                             detail=None if run.aborted_by else "no state of the last depth makes 24")
        print("Answer: (none)")
    else:
        node_id, expression = answer
        passed, trace = check(expression, numbers)
        run.answer(node_id, f"{expression} = 24")
        run.verify(node_id, passed, trace)
        summary = run.finish(output=f"{expression} = 24", best=node_id, success=passed, reason="terminated",
                             verified=passed)
        print(f"Answer: {expression} = 24 ({'verified' if passed else 'NOT verified: ' + trace})")
    stats = summary["stats"]
    print(f"Sent:   {stats['sent']} items, {stats['retried']} retried, {stats['dropped']} dropped; "
          f"finished on the server: {'yes' if summary['finished'] else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
