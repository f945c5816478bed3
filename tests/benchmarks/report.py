"""Markdown tables of medians and ratios, the goals, and docs/benchmarks.md."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .common import Samples, median


@dataclass
class Goal:
    """One goal of issue 8 and how this run did."""

    text: str
    value: str
    met: bool | None  # None: cannot be measured yet

    def line(self) -> str:
        """``- [x] text: value`` style, with MET / NOT MET / NOT MEASURED."""
        verdict = {True: "MET", False: "NOT MET", None: "NOT MEASURED"}[self.met]
        return f"- **{verdict}**: {self.text} — {self.value}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A markdown table; columns after the first are right-aligned."""
    align = ["---"] + ["---:"] * (len(header) - 1)
    lines = [header, align, *rows]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines)


def num(value: float, digits: int = 0) -> str:
    """``1,234`` / ``0.52``; an en dash for NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:,.{digits}f}"


def seconds(samples: Samples | None, digits: int = 2) -> str:
    """The median, and the range over the rounds when there are several."""
    if samples is None or not samples.values:
        return "–"
    text = num(samples.median, digits)
    if len(samples.values) > 1:
        low, high = min(samples.values), max(samples.values)
        text += f" [{num(low, digits)}–{num(high, digits)}]"
    return text


def ratio(top: float, bottom: float) -> float:
    """``top / bottom``, NaN when either is missing."""
    if not bottom or math.isnan(bottom) or math.isnan(top):
        return float("nan")
    return top / bottom


def load_range(loads: Sequence[float]) -> str:
    """The range of 1-minute load averages seen while measuring."""
    if not loads:
        return "–"
    return f"{min(loads):.2f}–{max(loads):.2f}"


def machine_section(info: dict[str, str]) -> str:
    """The machine and versions, one bullet each."""
    return "\n".join(f"- **{key}**: {value}" for key, value in info.items())


_MARK = "<!-- results:{name} -->"
_END = "<!-- /results:{name} -->"


def update_document(path: Path, sections: dict[str, str]) -> None:
    """Replace each named results block in ``path`` (append the missing ones)."""
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    for name, body in sections.items():
        start, end = _MARK.format(name=name), _END.format(name=name)
        block = f"{start}\n{body.strip()}\n{end}"
        pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
        if pattern.search(text):
            text = pattern.sub(lambda _m, b=block: b, text)
        else:
            text = text.rstrip("\n") + f"\n\n{block}\n"
    path.write_text(text.rstrip("\n") + "\n")


# Generation ------------------------------------------------------------------------


def generation_report(results: Sequence) -> tuple[str, list[Goal]]:
    """The generation table (medians [range] in seconds) and its goals."""
    header = [
        "Resources",
        "rounds",
        "panelforge cold",
        "ms / resource",
        "warm no-op",
        "one-field change",
        "peak MB (cold)",
        "fastapi-code-generator",
        "ms / resource",
        "copier copy (floor)",
        "cold ÷ fcg",
    ]
    rows, notes = [], []
    for result in results:
        cold = result.cases.get("cold")
        fcg = result.cases.get("fastapi-code-generator")
        peak = result.peak_mb.get("cold")
        rows.append(
            [
                str(result.size),
                str(result.rounds),
                seconds(cold),
                num(1000 * cold.median / result.size) if cold else "–",
                seconds(result.cases.get("warm no-op")),
                seconds(result.cases.get("one-field change")),
                num(peak) if peak else "–",
                seconds(fcg),
                num(1000 * fcg.median / result.size) if fcg else "–",
                seconds(result.cases.get("copier copy")),
                num(ratio(cold.median, fcg.median), 2) if cold and fcg else "–",
            ]
        )
        notes += [f"{result.size} resources: {note}" for note in result.notes]
        if result.change_summary:
            notes.append(
                f"{result.size} resources: the one-field change wrote "
                f"{result.change_summary}"
            )
    loads = [load for r in results for c in r.cases.values() for load in c.loads]
    body = [
        "Wall seconds per process, median [min–max] over the rounds; 15 fields per "
        "resource; panelforge as the README installs it (`pip install -e .`, no "
        "extras); peak MB is the largest max RSS of the cold runs. Load average "
        f"(1 min) after each measurement: {load_range(loads)}.",
        "",
        table(header, rows),
    ]
    if notes:
        body += ["", *[f"- {note}" for note in notes]]
    return "\n".join(body), generation_goals(results)


def _at(by_size: dict, size: int, case: str) -> float | None:
    result = by_size.get(size)
    if result is None or case not in result.cases:
        return None
    return result.cases[case].median


def _limit_goal(text: str, value: float | None, limit: float, unit: str) -> Goal:
    if value is None:
        return Goal(text, "not run", None)
    return Goal(text, f"{value:.2f} {unit}", value <= limit)


def generation_goals(results: Sequence) -> list[Goal]:
    """The generation goals of issues 8 and 17, judged on this run's medians."""
    by_size = {r.size: r for r in results}
    goals = []
    cold, fcg = _at(by_size, 100, "cold"), _at(by_size, 100, "fastapi-code-generator")
    if cold is not None and fcg is not None:
        value = ratio(cold, fcg)
        goals.append(
            Goal(
                "100 resources cold ≤ 0.5× fastapi-code-generator",
                f"{value:.2f}×",
                value <= 0.5,
            )
        )
    for text, size, case, limit in (
        ("cold, 100 resources ≤ 3 s (default install)", 100, "cold", 3.0),
        ("cold, 10 resources ≤ 1 s (default install)", 10, "cold", 1.0),
        ("one-field change, 100 resources ≤ 0.5 s", 100, "one-field change", 0.5),
        ("warm no-op, 100 resources ≤ 0.2 s", 100, "warm no-op", 0.2),
    ):
        goals.append(_limit_goal(text, _at(by_size, size, case), limit, "s"))
    sizes = sorted(s for s in by_size if s >= 100 and "cold" in by_size[s].cases)
    if len(sizes) >= 2:
        small, large = by_size[sizes[0]], by_size[sizes[-1]]
        growth = ratio(
            large.cases["cold"].median / large.size,
            small.cases["cold"].median / small.size,
        )
        goals.append(
            Goal(
                "cold cost linear in resources (per-resource time grows ≤ 1.25× "
                f"from {small.size} to {large.size})",
                f"{growth:.2f}×",
                growth <= 1.25,
            )
        )
    largest = max(by_size, default=None)
    peak = by_size[largest].peak_mb.get("cold") if largest else None
    goals.append(
        _limit_goal(f"peak memory at {largest} resources ≤ 300 MB", peak, 300, "MB")
    )
    return goals


# Serving ---------------------------------------------------------------------------

_OPS = ("list", "show", "create")


def _med(result, key: str, op: str, attribute: str) -> float:
    runs = result.runs.get((key, op), [])
    return median([getattr(run, attribute) for run in runs])


def serving_report(result) -> tuple[str, list[Goal]]:
    """Throughput and latency, ratios and CPU, per-round detail; and the goals."""
    config = result.config
    keys = [stack.key for stack in result.stacks]
    labels = {stack.key: stack.label for stack in result.stacks}
    speed_rows, ratio_rows = [], []
    for key in keys:
        row = [labels[key]]
        for op in _OPS:
            row += [
                num(_med(result, key, op, "rps")),
                num(_med(result, key, op, "p50_ms"), 1),
                num(_med(result, key, op, "p99_ms"), 1),
            ]
        speed_rows.append(row)
        ratios = [labels[key]]
        for base in ("b", "a"):
            for op in _OPS:
                value = ratio(
                    _med(result, key, op, "rps"), _med(result, base, op, "rps")
                )
                ratios.append(num(value, 2))
        ratios.append(
            " / ".join(num(_med(result, key, op, "server_cpu_ms"), 2) for op in _OPS)
        )
        ratio_rows.append(ratios)
    header = ["Stack"]
    for op in _OPS:
        header += [f"{op} req/s", "p50 ms", "p99 ms"]
    ratio_header = (
        ["Stack"]
        + [f"{op} ÷ {base}" for base in ("b", "a") for op in _OPS]
        + ["server CPU ms/req (list / show / create)"]
    )
    body = [
        f"{config.rows:,} rows; `wrk -t1 -c{config.connections} -d{config.seconds}s` "
        f"(create: `-d{config.create_seconds}s`, POST through a Lua script) after a "
        f"{config.warmup} s warm-up per URL; medians of {config.rounds} interleaved "
        f"round(s). Load average (1 min) at each server start: "
        f"{load_range(result.loads)}.",
        "",
        table(header, speed_rows),
        "",
        table(ratio_header, ratio_rows),
        "",
        *_django_table(result, labels),
        *_serving_lines(result),
        "",
        "Every round (req/s; others' CPU = cores busy with processes other than the "
        "server and wrk during the run):",
        "",
        _rounds_table(result, keys, labels),
    ]
    if result.notes:
        body += ["", *[f"- {note}" for note in result.notes]]
    return "\n".join(body), serving_goals(result)


def _django_table(result, labels: dict[str, str]) -> list[str]:
    """The Django stacks against DRF (c) and ``values()`` (d), with a blank line."""
    keys = [s.key for s in result.stacks if s.group == "django"]
    if not {"c", "d"} <= set(keys):
        return []
    rows = [
        [labels[key]]
        + [num(_rps_ratio(result, key, base, op), 2) for base in "cd" for op in _OPS]
        + [num(_cpu_ratio(result, key, "c", op), 2) for op in _OPS]
        for key in keys
    ]
    header = (
        ["Django stack"]
        + [f"{op} ÷ {base}" for base in "cd" for op in _OPS]
        + [f"{op} CPU/req: c ÷ stack" for op in _OPS]
    )
    return [
        table(header, rows),
        "",
        "(The CPU columns: DRF's server CPU per request ÷ this stack's, from the same "
        "run; above 1 the stack does a request with less CPU. Steadier than req/s "
        "when other processes share the cores.)",
        "",
    ]


def _rps_ratio(result, top: str, bottom: str, op: str) -> float:
    return ratio(_med(result, top, op, "rps"), _med(result, bottom, op, "rps"))


def _cpu_ratio(result, top: str, bottom: str, op: str) -> float:
    """``bottom``'s server CPU per request ÷ ``top``'s: how many times less CPU
    ``top`` spends on a request."""
    return ratio(
        _med(result, bottom, op, "server_cpu_ms"),
        _med(result, top, op, "server_cpu_ms"),
    )


def _gain(result, top: str, bottom: str) -> str:
    return ", ".join(
        f"{op} {num(_rps_ratio(result, top, bottom, op), 2)}×" for op in _OPS
    )


_COMPARISONS = (
    ("Gain from the settings alone, b tuned ÷ b defaults", "b", "b-default"),
    ("Gain from the settings alone, a tuned ÷ a defaults", "a", "a-default"),
    ("JWT vs session in the emitted app, JWT ÷ session", "emitted-jwt", "emitted"),
    ("JWT in the hand-written stack, e ÷ b", "e", "b"),
    (
        "JWT vs session in the emitted Django app, JWT ÷ session",
        "emitted-django-jwt",
        "emitted-django",
    ),
)


def _serving_lines(result) -> list[str]:
    keys = {stack.key for stack in result.stacks}
    pragmas = "; ".join(result.pragmas) or "none"
    lines = [f"- SQLite settings of the emitted app, given to a–e: `{pragmas}`."]
    for text, top, bottom in _COMPARISONS:
        if {top, bottom} <= keys:
            lines.append(f"- {text}: {_gain(result, top, bottom)}.")
    return lines


def _rounds_table(result, keys: Sequence[str], labels: dict[str, str]) -> str:
    rounds = result.config.rounds
    header = ["Stack", "op"] + [f"round {n + 1}" for n in range(rounds)]
    header.append("others' CPU (cores)")
    rows = []
    for key in keys:
        for op in _OPS:
            runs = result.runs.get((key, op), [])
            cells = [num(run.rps) for run in runs] + ["–"] * (rounds - len(runs))
            others = " / ".join(num(run.others_cores, 2) for run in runs)
            rows.append([labels[key], op, *cells, others])
    return table(header, rows)


def serving_goals(result) -> list[Goal]:
    """The serving goals (issue 17's, which raised issue 8's), on this run's medians."""
    goals = []
    checks = (
        ("emitted FastAPI list ≥ 3× hand-written (b)", "list", "b", 3.0),
        ("emitted FastAPI list ≥ 0.2× raw Starlette (a)", "list", "a", 0.2),
        ("emitted FastAPI show ≥ 5× hand-written (b)", "show", "b", 5.0),
        ("emitted FastAPI create ≥ 3× hand-written (b)", "create", "b", 3.0),
    )
    for text, op, base, limit in checks:
        value = ratio(_med(result, "emitted", op, "rps"), _med(result, base, op, "rps"))
        met = None if math.isnan(value) else value >= limit
        goals.append(Goal(text, f"{num(value, 2)}×", met))
    cpu = ratio(
        _med(result, "emitted", "list", "server_cpu_ms"),
        _med(result, "emitted", "show", "server_cpu_ms"),
    )
    goals.append(
        Goal(
            "emitted FastAPI list CPU per request ≤ 3× show's",
            f"{num(cpu, 2)}×",
            None if math.isnan(cpu) else cpu <= 3.0,
        )
    )
    keys = {stack.key for stack in result.stacks}
    for app, session in (("", "emitted"), (" Django", "emitted-django")):
        goals.append(_jwt_goal(result, keys, app, session))
    if {"emitted-django", "c"} <= keys:
        kept = {op: _rps_ratio(result, "emitted-django", "c", op) for op in _OPS}
        cpu = {op: _cpu_ratio(result, "emitted-django", "c", op) for op in _OPS}
        goals.append(
            Goal(
                "emitted Django list ≥ 1.5× and show ≥ 1.5× DRF (c)",
                ", ".join(f"{op} {num(value, 2)}×" for op, value in kept.items())
                + " (server CPU per request, DRF ÷ emitted: "
                + ", ".join(f"{op} {num(value, 2)}×" for op, value in cpu.items())
                + ")",
                kept["list"] >= 1.5 and kept["show"] >= 1.5,
            )
        )
    else:
        goals.append(
            Goal("emitted Django list ≥ 1.5× and show ≥ 1.5× DRF", "not run", None)
        )
    return goals


def _jwt_goal(result, keys: set[str], app: str, session: str) -> Goal:
    """JWT costs ≤ 10 %: the JWT row ÷ the session row of one emitted app."""
    jwt = f"{session}-jwt"
    if not {session, jwt} <= keys:
        return Goal(f"JWT costs ≤ 10% (emitted{app})", "JWT rows skipped", None)
    kept = {op: _rps_ratio(result, jwt, session, op) for op in _OPS}
    cpu = {
        op: ratio(
            _med(result, jwt, op, "server_cpu_ms"),
            _med(result, session, op, "server_cpu_ms"),
        )
        for op in _OPS
    }
    return Goal(
        f"JWT costs ≤ 10%: emitted{app} JWT ÷ session ≥ 0.90 in req/s",
        ", ".join(f"{op} {num(value, 2)}×" for op, value in kept.items())
        + " (server CPU per request, JWT ÷ session: "
        + ", ".join(f"{op} {num(value, 2)}×" for op, value in cpu.items())
        + ")",
        all(value >= 0.9 for value in kept.values()),
    )


# Scale -----------------------------------------------------------------------------


def scale_report(result) -> tuple[str, list[Goal]]:
    """SQL timings, HTTP latency per app, backend, size and URL, and the goals."""
    from .scale import URLS

    config = result.config
    sql_rows = []
    for (backend, settings, rows), timings in sorted(result.sql.items()):
        sql_rows.append(
            [f"{backend}, {settings}", f"{rows:,}"]
            + [num(value, 3) for value in timings.values()]
        )
    names = next(iter(result.sql.values())).keys() if result.sql else []
    p50_rows, cpu_rows = [], []
    for app, backend, rows in sorted({key[:3] for key in result.http}):
        cells = [[], []]
        for label in URLS:
            runs = result.http.get((app, backend, rows, label), [])
            p50, p99 = median([r.p50_ms for r in runs]), median(
                [r.p99_ms for r in runs]
            )
            cells[0].append(f"{num(p50, 1)} / {num(p99, 1)}")
            cells[1].append(num(median([r.server_cpu_ms for r in runs]), 2))
        p50_rows.append([app, backend, f"{rows:,}", *cells[0]])
        cpu_rows.append([app, backend, f"{rows:,}", *cells[1]])
    builds = ", ".join(
        f"{app} {backend} {rows:,}: {value:.1f} s"
        for (app, backend, rows), value in result.build_seconds.items()
    )
    head = ["App", "Backend", "rows"]
    body = [
        "SQL alone, in-process, ms (median of "
        f"{config.repeats} after one warm-up run; the deep page is the middle one; "
        "the capped count is what `total=estimate` runs first):",
        "",
        table(["Backend, settings", "rows", *[f"{n} ms" for n in names]], sql_rows),
        "",
        "The emitted apps' list over HTTP at one connection (`wrk -t1 -c1 "
        f"-d{config.seconds}s` after a {config.warmup} s warm-up), p50 / p99 ms, "
        f"medians of {config.rounds} interleaved round(s); load average (1 min) at "
        f"each start: {load_range(result.loads)}. Page 1 and the deep page by OFFSET "
        "count exactly (the default); the cursor page never counts:",
        "",
        table([*head, *URLS], p50_rows),
        "",
        "Server CPU ms per request:",
        "",
        table([*head, *URLS], cpu_rows),
        "",
        f"- Building the databases (migrate, one INSERT … SELECT, user): {builds}.",
    ]
    body += [f"- {note}" for note in result.notes]
    return "\n".join(body), scale_goals(result)


# What the goal holds to a constant latency: the big-table modes (and, for the
# record, the defaults, which count and skip with OFFSET).
_SCALE_CHECKED = (
    "deep page (cursor)",
    "page 1, total=estimate",
    "page 1, total=none",
)


def scale_goals(result) -> list[Goal]:
    """Page latency must not grow with the table (p50, largest ÷ smallest size)."""
    from .scale import URLS

    sizes = sorted({key[2] for key in result.http})
    if len(sizes) < 2:
        return [
            Goal("page latency does not grow with table size", "one size only", None)
        ]
    small, large = sizes[0], sizes[-1]
    goals = []
    for app, backend in sorted({key[:2] for key in result.http}):
        growth = {}
        for label in URLS:
            before = result.http.get((app, backend, small, label), [])
            after = result.http.get((app, backend, large, label), [])
            growth[label] = ratio(
                median([r.p50_ms for r in after]), median([r.p50_ms for r in before])
            )
        checked = [growth[label] for label in _SCALE_CHECKED]
        met = None if any(math.isnan(v) for v in checked) else max(checked) <= 1.5
        goals.append(
            Goal(
                f"{app}, {backend}: page latency does not grow with table size with "
                f"`cursor=` / `total=estimate|none` (p50 at {large:,} ÷ at {small:,} "
                "rows ≤ 1.5)",
                "; ".join(f"{label} {num(v, 1)}×" for label, v in growth.items()),
                met,
            )
        )
    return goals


def workers_report(result) -> tuple[str, list[Goal]]:
    """Requests per second with one and two workers on PostgreSQL, and the gain."""
    from .workers import FRAMEWORKS, OPS, WORKER_COUNTS

    config = result.config
    if result.skipped:
        return f"Not run: {result.skipped}.", [
            Goal("two workers on PostgreSQL serve more than one", result.skipped, None)
        ]
    rows, goals = [], []
    for framework in FRAMEWORKS:
        for op in OPS:
            rates = [
                median([r.rps for r in result.runs.get((framework, n, op), [])])
                for n in WORKER_COUNTS
            ]
            gain = ratio(rates[-1], rates[0])
            errors = sum(
                r.errors
                for n in WORKER_COUNTS
                for r in result.runs.get((framework, n, op), [])
            )
            rows.append(
                [framework, op, *(num(rate) for rate in rates), f"{num(gain, 2)}×"]
            )
            goals.append(
                Goal(
                    f"{framework} {op}: two workers on PostgreSQL serve more than one, "
                    "without errors",
                    f"{num(gain, 2)}×, {errors} errors",
                    None if math.isnan(gain) else gain > 1 and errors == 0,
                )
            )
    header = ["App", "op", *(f"{n} worker{'s' * (n > 1)} req/s" for n in WORKER_COUNTS)]
    body = [
        f"Session mode, PostgreSQL with {config.rows:,} rows, `wrk -c"
        f"{config.connections} -d{config.seconds}s` after a {config.warmup} s warm-up, "
        f"medians of {config.rounds} interleaved round(s). On 2 cores, wrk and "
        "PostgreSQL run on the same cores as the workers:",
        "",
        table([*header, "2 ÷ 1"], rows),
    ]
    return "\n".join(body), goals
