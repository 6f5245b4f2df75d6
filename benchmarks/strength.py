"""Bot strength and speed: the arena runs behind the documented claims (docs/bots/), and time per move of each level.

    python benchmarks/strength.py timing [--positions 80] [--level hard] [--iterations N]
    python benchmarks/strength.py claims [--only NAME]   # long: minutes to hours on 2 cores
    python benchmarks/strength.py curve [--players 2 4] [--budgets 100 300 ...] [--deals 30] [--label NAME] [--bot KIND]
    python benchmarks/strength.py outside [--players 2 4] [--simulations 100] [--deals 10] [--bot KIND]
    python benchmarks/strength.py openspiel-speed [--simulations 100] [--label NAME]
    python benchmarks/strength.py temperature [--players 2 4] [--rounds 20] [--bots hard medium]
    python benchmarks/strength.py belief [--players 2 4] [--opponents greedy heuristic hard] [--rounds 6]
    python benchmarks/strength.py match-play [--players 2] [--deals 16] [--seed 201]
    python benchmarks/strength.py rerate DIR [DIR ...]   # intervals and ratings of saved results, recomputed
    python benchmarks/strength.py pool DIR [DIR ...]     # one line-up's saved runs on other deals, as one
    python benchmarks/strength.py compare DIR:BOT DIR:BOT [...] [--save NAME]  # two bots on the same deals, paired
    python benchmarks/strength.py keep DIR [DIR ...] [--made-by COMMAND]  # a run's summary.json, the file to commit

Results go to benchmarks/results/<name>/: results.json (every game) and results.png. The per-game
results.json stays out of the repository (.gitignore); what is committed is the plot and summary.json (the
run's command, seed, configuration and summary table), which `keep` writes (claims, match-play and
outside write it themselves). rerate, pool and compare need
the per-game file: on a run kept as a summary they say which command regenerates it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from stored import RESULTS, provenance, save

from chickenfoot import Round, Rules
from chickenfoot.arena import ArenaConfig, margin_ci, rerate, run, run_arena, schedule, summarise
from chickenfoot.arena.stats import deal_bootstrap, percentile
from chickenfoot.bots import BOTS, DIFFICULTIES, Budget, make_bot
from chickenfoot.view import SeatView

SUMMARY = "summary.json"
"""What the repository keeps of an arena run in place of its per-game results.json."""

CLAIMS: dict[str, ArenaConfig] = {
    # 4 players, double-9, full 10-round matches: the hard level's search (600 iterations) against greedy.
    "4p-ismcts600-vs-greedy": ArenaConfig(("ismcts", "greedy", "greedy", "greedy"), Rules(), 12, 31, iterations=600),
    # 2 players, full matches.
    "2p-ismcts600-vs-greedy": ArenaConfig(("ismcts", "greedy"), Rules(), 30, 12, iterations=600),
    "2p-ismcts600-vs-greedy-repeat": ArenaConfig(("ismcts", "greedy"), Rules(), 15, 32, iterations=600),
    # The ladder at one 4-seat table, single rounds (random's rung is below).
    "4p-ladder-1round": ArenaConfig(
        ("cheater", "ismcts", "heuristic", "greedy"), Rules(rounds=1), 30, 41, iterations=300
    ),
    # The ladder's rungs, one against three.
    "4p-heuristic-vs-greedy": ArenaConfig(("heuristic", "greedy", "greedy", "greedy"), Rules(), 50, 1),
    "4p-greedy-vs-random": ArenaConfig(("greedy", "random", "random", "random"), Rules(), 50, 2),
    "2p-heuristic-vs-greedy": ArenaConfig(("heuristic", "greedy"), Rules(), 50, 3),
    # Root-only search against the full SO-ISMCTS tree at the same budget, single rounds.
    "4p-ismcts-vs-tree-1round": ArenaConfig(
        ("ismcts", "ismcts-tree", "greedy", "greedy"), Rules(rounds=1), 40, 21, iterations=600
    ),
}


def positions(count: int, seed: int) -> list[Round]:
    """Positions from 4-player greedy games with at least two legal moves, spread over whole rounds."""
    rng = random.Random(seed)
    found: list[Round] = []
    while len(found) < count:
        r = Round.deal(Rules(), 4, rng.getrandbits(32))
        bot = make_bot("greedy", rng.getrandbits(32))
        while not r.is_over() and len(found) < count:
            view = r.view(r.to_move)
            if len(view.legal_moves) > 1 and rng.random() < 0.3:
                found.append(r.copy())
            r.push(bot.choose(view))
    return found


def timing(level: str, count: int, seed: int, iterations: int | None) -> dict[str, float | int | str]:
    """Wall and CPU seconds per move; CPU time shows the cost on an idle core when the machine is busy."""
    bot = make_bot(level, seed)
    if iterations is not None:
        bot.budget = Budget(iterations=iterations)
    wall, cpu = [], []
    for r in positions(count, seed):
        view = r.view(r.to_move)
        start, start_cpu = time.perf_counter(), time.process_time()
        bot.choose(view)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    result: dict[str, float | int | str] = {"level": level, "budget": str(bot.budget), "positions": count}
    for name, values in (("wall", wall), ("cpu", cpu)):
        result |= {f"{name}_p50": round(percentile(values, 0.5), 3), f"{name}_p95": round(percentile(values, 0.95), 3)}
        result[f"{name}_max"] = round(max(values), 3)
    return result


CURVE_BUDGETS = (100, 300, 1000, 3000, 10000, 30000)


def curve(
    players: int, budgets: list[int], deals: int, opponent: str, seed: int, workers: int, bot: str = "ismcts"
) -> list[dict[str, Any]]:
    """The search (``bot``, a search kind) at each iteration budget, one against ``players - 1`` fixed
    opponents, single rounds on the same duplicate deals for every budget: round win share, points per
    round and the margin (the other seats' mean points minus its own), each with its deal-bootstrap interval."""
    lineup = (bot, *[opponent] * (players - 1))
    rows = []
    for budget in budgets:
        started = time.perf_counter()
        results = run(schedule(lineup, Rules(rounds=1), deals, seed, iterations=budget), workers)
        ours = next(row for row in summarise(results) if row.bot == bot)
        margin = margin_ci(results, bot)
        row = {
            "iterations": budget,
            "deals": deals,
            "games": len(results),
            "margin": [round(v, 2) for v in margin],
            "win_share": [round(v, 3) for v in (ours.win_share, ours.win_low, ours.win_high)],
            "points_per_round": [round(v, 2) for v in (ours.points_per_round, ours.points_low, ours.points_high)],
            "move_seconds_p50": round(ours.move_p50, 4),
            "seconds": round(time.perf_counter() - started, 1),
        }
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def plot_curve(path: Path, runs: dict[str, list[dict[str, Any]]], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axis = plt.subplots(figsize=(6, 4))
    for label, rows in runs.items():
        x = [row["iterations"] for row in rows]
        mean = [row["margin"][0] for row in rows]
        errors = [
            [m - row["margin"][1] for m, row in zip(mean, rows, strict=True)],
            [row["margin"][2] - m for m, row in zip(mean, rows, strict=True)],
        ]
        axis.errorbar(x, mean, yerr=errors, fmt="o-", capsize=4, label=label)
    axis.set_xscale("log")
    axis.set_xlabel("search iterations per move")
    axis.set_ylabel("points/round margin (95% CI by deal)")
    axis.axhline(0, color="grey", linewidth=0.5)
    axis.legend()
    axis.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def endgame_regret(players: int, count: int, budgets: list[int], seed: int) -> dict[str, Any]:
    """On endgames the solver takes (positions of greedy rounds), how many points per decision the
    sampled search (exact endgames off) gives away against the solved best move, by the solver's values."""
    from chickenfoot.bots import SearchBot
    from chickenfoot.bots.endgame import applies, solve

    views: list[SeatView] = []
    rng = random.Random(seed)
    while len(views) < count:
        r = Round.deal(Rules(), players, rng.getrandbits(32))
        bot = make_bot("greedy", rng.getrandbits(32))
        while not r.is_over():
            view = r.view(r.to_move)
            if applies(view) and len(view.legal_moves) > 1 and rng.random() < 0.5:
                views.append(view)
                break
            r.push(bot.choose(view))
    exact = [solve(view) for view in views]
    solved = [(view, stats) for view, stats in zip(views, exact, strict=True) if stats is not None]
    result: dict[str, Any] = {"players": players, "positions": len(views), "solved": len(solved)}
    for budget in budgets:
        sampled = SearchBot(seed, Budget(iterations=budget))
        sampled.exact_endgames = False
        regrets = []
        for view, stats in solved:
            best = max(total for _, total in stats.values()) / max(n for n, _ in stats.values())
            chosen = sampled.choose(view).code
            regrets.append(best - stats[chosen][1] / stats[chosen][0])
        result[f"sampled_{budget}"] = {
            "mean_regret_points": round(sum(regrets) / len(regrets), 3),
            "share_not_best": round(sum(r > 1e-9 for r in regrets) / len(regrets), 3),
        }
    return result


OUTSIDE_OPPONENTS = ("os-ismcts", "os-dmcts")


def outside(
    players: int,
    simulations: int,
    deals: int,
    seed: int,
    workers: int,
    ratios: list[int],
    label: str,
    opponents: list[str],
    bot: str = "ismcts",
) -> list[dict[str, Any]]:
    """Our search (``bot``, a search kind) at ``ratio`` times the simulations of each OpenSpiel searcher, one
    against the rest, single rounds on duplicate deals; each run kept under
    results/outside-<players>p-<opponent>-<ratio>x/."""
    from outside import Entrant, outside_schedule, run_outside

    from chickenfoot.arena.report import write_json

    rows = []
    for opponent in opponents:
        theirs = Entrant(f"{opponent}@{simulations}", opponent, simulations)
        for ratio in ratios:
            ours = Entrant(f"{bot}@{simulations * ratio}", bot, simulations * ratio)
            started = time.perf_counter()
            results = run_outside(outside_schedule((ours, *[theirs] * (players - 1)), deals, seed), workers)
            summary = {row.bot: row for row in summarise(results)}
            margin = margin_ci(results, ours.label)
            row = {
                "players": players,
                "ours": ours.label,
                "theirs": theirs.label,
                "deals": deals,
                "rounds": len(results),
                "margin": [round(v, 2) for v in margin],
                "round_win_share": [
                    round(v, 3)
                    for v in (summary[ours.label].win_share, summary[ours.label].win_low, summary[ours.label].win_high)
                ],
                "our_cpu_s_per_move": round(summary[ours.label].move_p50, 4),
                "their_cpu_s_per_move": round(summary[theirs.label].move_p50, 4),
                "seconds": round(time.perf_counter() - started, 1),
            }
            print(json.dumps(row), flush=True)
            rows.append(row)
            config = {
                "players": players,
                "deals": deals,
                "seed": seed,
                "lineup": [ours.label, *[theirs.label] * (players - 1)],
            }
            out = RESULTS / f"outside-{players}p-{opponent}-{ratio}x{label}"
            out.mkdir(parents=True, exist_ok=True)
            write_json(out / "results.json", config | {"matches": deals}, list(summary.values()), results)
            keep(out, this_command())
    return rows


TEMPERATURES = (1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0)


def temperature_fit(players: int, rounds: int, bots: list[str], seed: int) -> dict[str, Any]:
    """The belief model's spread fitted to how ``bots`` really choose: over their plays in self-play
    rounds that were a choice among several tiles, the mean log likelihood of the tile chosen under
    ``exp(cost / T)`` over the tiles they could play (from the true hands), per temperature, and under
    a uniform choice among them."""
    from chickenfoot.belief import tile_costs

    costs = tile_costs(Rules())
    rng = random.Random(seed)
    choices: list[tuple[float, list[float]]] = []
    for _ in range(rounds):
        r = Round.deal(Rules(), players, rng.getrandbits(32))
        seats = [make_bot(bots[s % len(bots)], rng.getrandbits(32)) for s in range(players)]
        while not r.is_over():
            view = r.view(r.to_move)
            move = seats[r.to_move].choose(view)
            tiles = {m.tile for m in view.legal_moves if m.tile is not None}
            if view.drawn is None and move.kind != "hub" and len(tiles) > 1 and move.tile is not None:
                choices.append((costs[move.tile.id], [costs[t.id] for t in tiles]))
            r.push(move)
    fit = {}
    for t in TEMPERATURES:
        total = 0.0
        for chosen, options in choices:
            top = max(options)
            total += (chosen - top) / t - math.log(sum(math.exp((c - top) / t) for c in options))
        fit[str(t)] = round(total / len(choices), 4)
    fit["uniform"] = round(-sum(math.log(len(options)) for _, options in choices) / len(choices), 4)
    return {"players": players, "bots": bots, "rounds": rounds, "choices": len(choices), "mean_log_likelihood": fit}


def belief_accuracy(players: int, opponent: str, rounds: int, seed: int, pool_size: int = 512) -> dict[str, Any]:
    """How much the belief knows: in rounds of ``opponent`` bots, at each decision after an opponent's
    choice, how many of the opponents' hidden tiles a sampled deal puts in the right hand, on average
    over deals drawn uniformly and over deals drawn by belief weight (the true hands are read only to
    score the samples), and the pools' effective sizes."""
    from chickenfoot.belief import Belief
    from chickenfoot.knowledge import Knowledge

    rng = random.Random(seed)
    uniform = weighted = 0.0
    sizes: list[float] = []
    for _ in range(rounds):
        r = Round.deal(Rules(), players, rng.getrandbits(32))
        bots = [make_bot(opponent, rng.getrandbits(32)) for _ in range(players)]
        while not r.is_over():
            seat = r.to_move
            view = r.view(seat)
            knowledge = Knowledge(view)
            belief = Belief(knowledge)
            if len(view.legal_moves) > 1 and belief.informative:
                pool = belief.pool(rng, pool_size)
                sizes.append(pool.effective_size())
                for picks, weight in zip(pool.picks, pool.weights, strict=True):
                    hands, _ = knowledge.place(picks, rng)
                    right = sum((hands[s] & r.hands[s]).bit_count() for s in range(players) if s != seat)
                    uniform += right / pool_size
                    weighted += weight * right
            r.push(bots[seat].choose(view))
    n = len(sizes)
    return {
        "players": players,
        "opponent": opponent,
        "rounds": rounds,
        "decisions": n,
        "right_tiles_uniform": round(uniform / n, 3),
        "right_tiles_belief": round(weighted / n, 3),
        "effective_pool_share": round(sum(sizes) / n / pool_size, 3),
    }


ROUND_ONLY = "expert-round"
"""The expert level playing for each round's margin alone: what playing for the match is measured against."""


def match_play(players: int, deals: int, seed: int) -> None:
    """``expert`` against ``hard`` in full matches, and on the same deals the same search playing each
    round for its margin alone: the match win share that playing for the match buys."""
    DIFFICULTIES[ROUND_ONLY] = dataclasses.replace(DIFFICULTIES["expert"], plays_match=False)
    for name in ("expert", ROUND_ONLY):
        config = ArenaConfig((name, *["hard"] * (players - 1)), Rules(), deals, seed)
        run_arena(config, RESULTS / f"{players}p-{name}-vs-hard")
        keep(RESULTS / f"{players}p-{name}-vs-hard", this_command())


def this_command() -> str:
    """The command line that is running, as the results it writes record it."""
    return "python benchmarks/strength.py " + " ".join(sys.argv[1:])


def games_file(path: Path) -> Path:
    """The per-game ``results.json`` of a saved run, or a one-line exit naming the command that regenerates it."""
    file = path / "results.json"
    if file.exists():
        return file
    summary = path / SUMMARY
    if summary.exists():
        command = json.loads(summary.read_text(encoding="utf-8"))["command"]
        raise SystemExit(f"{path}: the repository keeps no per-game results; regenerate them with: {command}")
    raise SystemExit(f"{path}: no results.json here (not a saved arena run)")


def arena_command(path: Path, config: dict[str, Any]) -> str:
    """The ``chickenfoot arena`` command that plays a saved run again, from its configuration."""
    rules = dict(config["rules"])
    words = ["chickenfoot arena", f"--bots {','.join(config['lineup'])}"]
    if rules.get("rounds"):
        words.append(f"--rounds {rules.pop('rounds')}")
    words += [f"--rule {key}={value}" for key, value in rules.items() if getattr(Rules(), key) != value]
    words.append(f"--matches {config['matches']}")
    if config.get("iterations"):
        words.append(f"--iterations {config['iterations']}")
    words += [f"--workers {config['workers']}", f"--seed {config['seed']}", f"--out {path}"]
    return " ".join(words)


def keep(path: Path, command: str | None) -> None:
    """Write a run's ``summary.json``: its command, seed, deals and games, configuration and summary rows."""
    data = json.loads(games_file(path).read_text(encoding="utf-8"))
    config = data["config"]
    summary = {
        "format": "chickenfoot-arena-summary/1",
        "command": command or arena_command(path, config),
        "seed": config["seed"],
        "deals": len({game["deal"] for game in data["games"]}),
        "games": len(data["games"]),
        "config": config,
        "summary": data["summary"],
    }
    (path / SUMMARY).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


def pool(dirs: list[Path]) -> list[dict[str, Any]]:
    """Saved runs of the same line-up summarised as one sample. A deal is its run's seed and number: runs
    with the same seed replayed the same deals, whose games then fall in one cluster of the bootstrap."""
    from chickenfoot.arena import load_results

    games = []
    seeds: dict[int, int] = {}
    for path in dirs:
        config, _, saved = load_results(games_file(path))
        key = seeds.setdefault(config["seed"], len(seeds))
        games += [dataclasses.replace(game, deal=key * 100_000 + game.deal) for game in saved]
    rows = []
    for row in summarise(games):
        margin = margin_ci(games, row.bot)
        rows.append(
            {
                "bot": row.bot,
                "games": row.games,
                "win_share": [round(v, 3) for v in (row.win_share, row.win_low, row.win_high)],
                "points_per_round": [round(v, 2) for v in (row.points_per_round, row.points_low, row.points_high)],
                "margin": [round(v, 2) for v in margin],
            }
        )
    return rows


def compare(pairs: list[tuple[tuple[Path, str], tuple[Path, str]]]) -> dict[str, Any]:
    """Pairs of saved runs, each pair on the same deals (the same seed and rules), one bot of each run:
    per deal, the first bot's margin minus the second's (points per round, positive: the first did
    better) and its win share minus the second's, each with its 95% bootstrap over the deals of every
    pair. Pairing by deal removes the luck of the tiles that both runs of a pair share."""
    from chickenfoot.arena import load_results

    differences = []
    win_differences = []
    for first, second in pairs:
        margins = []
        wins = []
        configs = []
        for path, bot in (first, second):
            config, _, games = load_results(games_file(path))
            configs.append(config)
            per_deal: dict[int, tuple[float, int]] = {}
            won: dict[int, tuple[float, int]] = {}
            for game in games:
                for slot in game.slots:
                    if slot.bot != bot:
                        continue
                    others = [o for o in game.slots if o is not slot]
                    total, count = per_deal.get(game.deal, (0.0, 0))
                    for k, own in enumerate(slot.round_points):
                        total += sum(o.round_points[k] for o in others) / len(others) - own
                    per_deal[game.deal] = (total, count + len(slot.round_points))
                    share, games_played = won.get(game.deal, (0.0, 0))
                    won[game.deal] = (share + slot.win, games_played + 1)
            if not per_deal:
                raise SystemExit(f"{path}: no games of {bot}")
            margins.append({deal: total / count for deal, (total, count) in per_deal.items()})
            wins.append({deal: share / n for deal, (share, n) in won.items()})
        if (configs[0]["seed"], configs[0]["rules"]) != (configs[1]["seed"], configs[1]["rules"]):
            raise SystemExit(f"{first[0]} and {second[0]} did not play the same deals (their seeds or rules differ)")
        shared = sorted(margins[0].keys() & margins[1].keys())
        differences += [margins[0][d] - margins[1][d] for d in shared]
        win_differences += [wins[0][d] - wins[1][d] for d in shared]
    difference = deal_bootstrap([(d, 1.0) for d in differences])
    win_difference = deal_bootstrap([(d, 1.0) for d in win_differences])
    return {
        "pairs": [[f"{a[0].name}:{a[1]}", f"{b[0].name}:{b[1]}"] for a, b in pairs],
        "deals": len(differences),
        "margin_difference": [round(v, 2) for v in difference],
        "win_share_difference": [round(v, 3) for v in win_difference],
    }


def run_and_bot(text: str) -> tuple[Path, str]:
    """``DIR:BOT`` of the compare command."""
    path, _, bot = text.rpartition(":")
    if not path or not bot:
        raise argparse.ArgumentTypeError(f"expected DIR:BOT, got {text!r}")
    return Path(path), bot


def machine() -> dict[str, Any]:
    """How the result was made (the command, the commit, when, and the machine's load): results measured under
    load say so."""
    return provenance("strength.py")


def report_rows(name: str, rows: list[dict[str, Any]]) -> None:
    """Print each row as JSON and save them all, with the command that made them, as ``name``."""
    for row in rows:
        print(json.dumps(row))
    save(name, {"rows": rows, **machine()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("timing", help="time per move of a difficulty level")
    t.add_argument("--level", default="hard", choices=[*DIFFICULTIES, *BOTS], help="a level or a bot kind")
    t.add_argument("--positions", type=int, default=80)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--iterations", type=int, help="a pure iteration budget instead of the level's")
    c = sub.add_parser("claims", help="the arena runs behind the ladder's strength claims (docs/bots/ladder.md)")
    c.add_argument("--only", choices=list(CLAIMS))
    o = sub.add_parser("openspiel-speed", help="cost of python_chickenfoot's clone() and of an ISMCTSBot move")
    o.add_argument("--players", type=int, nargs="+", default=[2, 4])
    o.add_argument("--positions", type=int, default=20)
    o.add_argument("--simulations", type=int, default=100)
    o.add_argument("--label", default="")
    k = sub.add_parser("curve", help="the search's strength as its iteration budget grows")
    k.add_argument("--players", type=int, nargs="+", default=[2, 4])
    k.add_argument("--budgets", type=int, nargs="+", default=list(CURVE_BUDGETS))
    k.add_argument("--deals", type=int, default=30)
    k.add_argument("--opponent", default="heuristic")
    k.add_argument(
        "--bot",
        default="ismcts",
        help="the search kind measured (ismcts-belief: belief-weighted deals; ismcts-learned: the learned rollouts)",
    )
    k.add_argument("--seed", type=int, default=5)
    k.add_argument("--workers", type=int, default=1)
    k.add_argument("--label", default="", help="a name for this version of the search (results kept per label)")
    u = sub.add_parser("outside", help="our search against OpenSpiel's ISMCTSBot and determinized MCTS")
    u.add_argument("--players", type=int, nargs="+", default=[2, 4])
    u.add_argument("--simulations", type=int, default=100, help="the OpenSpiel searchers' simulations per move")
    u.add_argument("--ratios", type=int, nargs="+", default=[1, 10], help="our iterations as multiples of theirs")
    u.add_argument("--deals", type=int, default=12)
    u.add_argument("--seed", type=int, default=9)
    u.add_argument("--workers", type=int, default=1)
    u.add_argument("--label", default="", help="kept apart from other runs under this name (e.g. a repeat)")
    u.add_argument("--opponents", nargs="+", choices=OUTSIDE_OPPONENTS, default=list(OUTSIDE_OPPONENTS))
    u.add_argument("--bot", default="ismcts", help="our search kind (ismcts-learned: the learned rollout policy)")
    e = sub.add_parser("endgame", help="points per decision the sampled search loses in solvable endgames")
    e.add_argument("--players", type=int, nargs="+", default=[2, 4])
    e.add_argument("--positions", type=int, default=40)
    e.add_argument("--budgets", type=int, nargs="+", default=[300, 1000])
    e.add_argument("--seed", type=int, default=3)
    m = sub.add_parser("match-play", help="expert against hard, playing for the match and for each round")
    m.add_argument("--players", type=int, default=2)
    m.add_argument("--deals", type=int, default=16)
    m.add_argument("--seed", type=int, default=201)
    p = sub.add_parser("pool", help="one line-up's saved runs on other deals, summarised as one sample")
    p.add_argument("dirs", nargs="+", type=Path)
    p.add_argument("--save", help="also keep the lines under results/ by this file name")
    f = sub.add_parser("temperature", help="the belief model's spread fitted to how bots choose their tiles")
    f.add_argument("--players", type=int, nargs="+", default=[2, 4])
    f.add_argument("--rounds", type=int, default=20)
    f.add_argument("--bots", nargs="+", default=["hard", "medium"])
    f.add_argument("--seed", type=int, default=13)
    q = sub.add_parser("compare", help="two bots' margins on the same deals, paired by deal")
    q.add_argument("runs", type=run_and_bot, nargs="+", help="pairs of DIR:BOT, a saved run and a bot in it")
    q.add_argument("--save", help="also keep the line under results/ by this file name")
    b = sub.add_parser("belief", help="how many hidden tiles uniform and belief-weighted deals place right")
    b.add_argument("--players", type=int, nargs="+", default=[2, 4])
    b.add_argument("--opponents", nargs="+", default=["greedy", "heuristic", "hard"])
    b.add_argument("--rounds", type=int, default=6)
    b.add_argument("--seed", type=int, default=5)
    r = sub.add_parser("rerate", help="recompute the intervals and ratings of saved results with the current methods")
    r.add_argument("dirs", nargs="+", type=Path)
    s = sub.add_parser("keep", help="write a run's summary.json, the part of it the repository keeps")
    s.add_argument("dirs", nargs="+", type=Path)
    s.add_argument("--made-by", help="the command that made the run (default: the chickenfoot arena command)")
    args = parser.parse_args()
    if args.command == "rerate":
        for path in args.dirs:
            games_file(path)
            rerate(path)
        return
    if args.command == "keep":
        for path in args.dirs:
            keep(path, args.made_by)
        return
    if args.command == "pool":
        rows = pool(args.dirs)
        if args.save:
            report_rows(args.save, rows)
        else:
            for row in rows:
                print(json.dumps(row))
        return
    if args.command == "belief":
        report_rows(
            "belief-accuracy.json",
            [belief_accuracy(p, o, args.rounds, args.seed) for p in args.players for o in args.opponents],
        )
        return
    if args.command == "compare":
        if len(args.runs) % 2:
            parser.error("compare takes runs in pairs: DIR:BOT DIR:BOT [DIR:BOT DIR:BOT ...]")
        row = compare(list(zip(args.runs[::2], args.runs[1::2], strict=True)))
        print(json.dumps(row))
        if args.save:
            save(args.save, {**row, **machine()})
        return
    if args.command == "match-play":
        match_play(args.players, args.deals, args.seed)
        return
    if args.command == "openspiel-speed":
        from outside import speed

        rows = [dataclasses.asdict(speed(p, args.positions, args.simulations)) for p in args.players]
        for row in rows:
            print(json.dumps(row))
        save(f"openspiel-speed{'-' + args.label if args.label else ''}.json", {"rows": rows, **machine()})
        return
    if args.command == "curve":
        for players in args.players:
            name = f"curve-{players}p-vs-{args.opponent}"
            out = RESULTS / name
            out.mkdir(parents=True, exist_ok=True)
            file = out / "curve.json"
            saved = json.loads(file.read_text(encoding="utf-8")) if file.exists() else {}
            rows = curve(players, args.budgets, args.deals, args.opponent, args.seed, args.workers, args.bot)
            label = args.label or "search"
            # Budgets run apart (same deals) join the label's curve; a budget run again replaces its row.
            earlier = [row for row in saved.get(label, {}).get("rows", []) if row["iterations"] not in args.budgets]
            command = "python benchmarks/strength.py curve " + " ".join(sys.argv[2:])
            commands = [*saved.get(label, {}).get("commands", []), command]
            saved[label] = {
                "rows": sorted(earlier + rows, key=lambda row: row["iterations"]),
                "commands": commands,
                **machine(),
            }
            file.write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
            plot_curve(out / "curve.png", {label: run["rows"] for label, run in saved.items()}, name)
        return
    if args.command == "outside":
        suffix = f"-{args.label}" if args.label else ""
        rows = [
            row
            for players in args.players
            for row in outside(
                players,
                args.simulations,
                args.deals,
                args.seed,
                args.workers,
                args.ratios,
                suffix,
                args.opponents,
                args.bot,
            )
        ]
        report_rows(f"outside-{'-'.join(map(str, args.players))}p{suffix}.json", rows)
        return
    if args.command == "temperature":
        report_rows(
            "belief-temperature.json", [temperature_fit(p, args.rounds, args.bots, args.seed) for p in args.players]
        )
        return
    if args.command == "endgame":
        report_rows(
            "endgame-regret.json", [endgame_regret(p, args.positions, args.budgets, args.seed) for p in args.players]
        )
        return
    if args.command == "timing":
        result = timing(args.level, args.positions, args.seed, args.iterations)
        print(json.dumps(result))
        suffix = f"-{args.iterations}it" if args.iterations else ""
        save(f"timing-{args.level}{suffix}.json", {**result, **machine()})
        return
    for name, config in CLAIMS.items():
        if args.only in (None, name):
            run_arena(config, RESULTS / name)
            keep(RESULTS / name, f"python benchmarks/strength.py claims --only {name}")


if __name__ == "__main__":
    main()
