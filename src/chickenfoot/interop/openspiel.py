"""Chicken Foot as an OpenSpiel Python game, registered as ``python_chickenfoot``.

>>> import pyspiel
>>> import chickenfoot.interop.openspiel  # registers the game
>>> game = pyspiel.load_game("python_chickenfoot", {"players": 3, "max_pip": 6})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.num_distinct_actions()
(True, 28, 303)

One game is one round. The deal is a run of chance nodes, one tile each (seat 0's hand first), and
every draw is a decision ``draw`` followed by a chance node that picks the tile from the boneyard.
Player actions are numbered by :class:`~chickenfoot.interop.actions.ActionCodec`; chance outcomes
are tile ids. Returns are minus each seat's points, or with ``zero_sum=True`` the table's mean
points minus the seat's own. Observations come from the seat's view (the features of
:mod:`chickenfoot.interop.features`); the information state string is perfect recall (own hand
and the whole public history, own draws included); the information state tensor adds who placed
each tile and in which order. ``resample_from_infostate`` replays the round on a deal drawn by
:func:`chickenfoot.knowledge.sample_deal`, so it agrees with everything the player saw. An illegal
action is refused, as OpenSpiel's games do: :class:`~chickenfoot.errors.IllegalMoveError` says why,
and the state is unchanged (:mod:`chickenfoot.interop.illegal`).

Parameters: ``players`` (4), ``max_pip`` (9), ``hub_arms`` (4), ``drawn_tile`` ("may"),
``draw_limit`` ("one"), ``double_blank_points`` (50), ``start_double`` (-1: ``max_pip``),
``zero_sum`` (False).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from chickenfoot.errors import IllegalMoveError, RulesError
from chickenfoot.interop.actions import ActionCodec
from chickenfoot.interop.features import ObservationEncoder, lacked_numbers, max_round_points
from chickenfoot.interop.pettingzoo import round_rewards
from chickenfoot.knowledge import sample_deal
from chickenfoot.move import DRAW
from chickenfoot.round import Round
from chickenfoot.rules import Rules
from chickenfoot.tiles import TILES, mask_of
from chickenfoot.view import SeatView

SHORT_NAME = "python_chickenfoot"
MAX_PLAYERS = 20
DEFAULTS: dict[str, Any] = {
    "players": 4,
    "max_pip": 9,
    "hub_arms": 4,
    "drawn_tile": "may",
    "draw_limit": "one",
    "double_blank_points": 50,
    "start_double": -1,
    "zero_sum": False,
}


def _game_type(zero_sum: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Chicken Foot dominoes",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


@dataclass(frozen=True)
class Config:
    """The game's settings, computed once per parameter set (states reach them through their game's parameters)."""

    rules: Rules
    players: int
    hand_size: int
    start_double: int
    zero_sum: bool
    codec: ActionCodec

    def __deepcopy__(self, memo: dict[int, object]) -> Config:
        # OpenSpiel clones a Python state by deep-copying its attributes: the settings are shared.
        return self

    @classmethod
    def of(cls, params: dict[str, Any] | None) -> Config:
        values = {**DEFAULTS, **(params or {})}
        unknown = sorted(set(values) - set(DEFAULTS))
        if unknown:
            raise RulesError(f"unknown parameter {unknown[0]!r}")
        return _config(tuple(sorted(values.items())))


@cache
def _config(items: tuple[tuple[str, Any], ...]) -> Config:
    values = dict(items)
    rules = Rules(
        max_pip=values["max_pip"],
        hub_arms=values["hub_arms"],
        drawn_tile=values["drawn_tile"],
        draw_limit=values["draw_limit"],
        double_blank_points=values["double_blank_points"],
    )
    players = int(values["players"])
    if not 2 <= players <= MAX_PLAYERS:
        raise RulesError(f"players must be from 2 to {MAX_PLAYERS} (got {players})")
    start = int(values["start_double"])
    if start > rules.max_pip:
        raise RulesError(f"start_double must be at most max_pip {rules.max_pip} (got {start})")
    return Config(
        rules=rules,
        players=players,
        hand_size=rules.hand_size_for(players),
        start_double=rules.max_pip if start < 0 else start,
        zero_sum=bool(values["zero_sum"]),
        codec=ActionCodec.for_max_pip(rules.max_pip),
    )


class ChickenfootGame(pyspiel.Game):  # type: ignore[misc]
    """One round of Chicken Foot for OpenSpiel (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """The game with ``params`` (the module docstring lists them; the rest keep their defaults). An
        unknown parameter or a bad value raises :class:`~chickenfoot.errors.RulesError`."""
        config = Config.of(params)
        tiles = config.rules.tile_count
        worst = float(max_round_points(config.rules))
        info = pyspiel.GameInfo(
            num_distinct_actions=config.codec.size,
            max_chance_outcomes=tiles,
            num_players=config.players,
            min_utility=-worst,
            max_utility=worst if config.zero_sum else 0.0,
            utility_sum=0.0 if config.zero_sum else None,
            # placements, draws, passes after a draw, and at most P-1 passes in a row otherwise
            max_game_length=tiles * (config.players + 3),
        )
        super().__init__(_game_type(config.zero_sum), info, {**DEFAULTS, **(params or {})})

    def new_initial_state(self) -> ChickenfootState:
        """A round before its deal: the first chance node."""
        return ChickenfootState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> ChickenfootObserver:
        """The observer OpenSpiel asks for observation and information state tensors and strings (default:
        the observation, without perfect recall)."""
        return ChickenfootObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class ChickenfootState(pyspiel.State):  # type: ignore[misc]
    """A round being dealt or played."""

    def __init__(self, game: pyspiel.Game) -> None:
        super().__init__(game)
        self.config = Config.of(game.get_parameters())
        """The game's settings: its rules, players, hand size, starting double, returns and action codec."""
        self.dealt: list[int] = []
        """The tile ids dealt so far, in deal order (seat 0's hand first)."""
        self.round: Round | None = None
        """The round once it is dealt (``None`` during the deal): the whole truth, hidden hands included."""
        self.drawing = False
        """The player to move chose ``draw``: the chance node that picks the tile is next."""

    def current_player(self) -> int:
        """The seat to move, ``PlayerId.CHANCE`` while dealing or drawing, ``PlayerId.TERMINAL`` at the end."""
        if self.round is None or self.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        if self.round.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.round.to_move

    def _legal_actions(self, player: int) -> list[int]:
        assert self.round is not None
        return sorted(self.config.codec.actions_of(self.round.legal_codes()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(tile id, probability)`` of every tile the chance node may give, all equally likely."""
        if self.round is None:
            left = sorted(set(range(self.config.rules.tile_count)) - set(self.dealt))
        else:
            left = sorted(self.round.boneyard)
        return [(tile, 1.0 / len(left)) for tile in left]

    def _apply_action(self, action: int) -> None:
        """Apply an action; an illegal one raises :class:`IllegalMoveError` and changes nothing."""
        config = self.config
        if self.round is None:
            if not 0 <= action < config.rules.tile_count or action in self.dealt:
                raise IllegalMoveError(f"chance outcome {action} is not a tile left to deal")
            self.dealt.append(action)
            size = config.hand_size
            if len(self.dealt) == size * config.players:
                hands = [mask_of(self.dealt[s * size : (s + 1) * size]) for s in range(config.players)]
                rest = sorted(set(range(config.rules.tile_count)) - set(self.dealt))
                self.round = Round.from_masks(config.rules, hands, rest, config.start_double)
        elif self.drawing:
            boneyard = self.round.boneyard
            if action not in boneyard:
                raise IllegalMoveError(f"chance outcome {action} is not a tile in the boneyard")
            boneyard.remove(action)
            boneyard.append(action)  # the engine draws from the end of its boneyard list
            self.drawing = False
            self.round.push_code(DRAW)
        else:
            move = config.codec.move_of(action)
            if move.code == DRAW and DRAW in self.round.legal_codes():
                self.drawing = True
            else:
                self.round.push(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'deal' if self.round is None else 'draw'} {TILES[action]}"
        return str(self.config.codec.move_of(action))

    def is_terminal(self) -> bool:
        """Whether the round is over."""
        return self.round is not None and not self.drawing and self.round.is_over()

    def returns(self) -> list[float]:
        """Each seat's return: minus its points (or, with ``zero_sum``, the table's mean minus its own);
        0 for all before the end."""
        if not self.is_terminal():
            return [0.0] * self.config.players
        assert self.round is not None
        return round_rewards(self.round.points(), "zero_sum" if self.config.zero_sum else "points")

    def view(self, player: int | None) -> SeatView | None:
        """The seat's view (``None`` while the deal is still going on)."""
        return None if self.round is None else self.round.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> ChickenfootState:
        """A state the player cannot tell from this one, with the hidden tiles drawn afresh."""
        rng = random.Random(int(probability_sampler() * 2**53))
        config = self.config
        fresh = ChickenfootState(self.get_game())
        if self.round is None:
            size = config.hand_size
            mine = set(range(player_id * size, (player_id + 1) * size))
            hidden = sorted(set(range(config.rules.tile_count)) - {self.dealt[i] for i in mine if i < len(self.dealt)})
            rng.shuffle(hidden)
            for i, tile in enumerate(self.dealt):
                fresh.apply_action(tile if i in mine else hidden.pop())
            return fresh
        view = self.round.view(player_id)
        deal = sample_deal(view, rng)
        for hand in deal.hands:
            for tile in hand:
                fresh.apply_action(tile)
        for step in deal.round.history:
            fresh.apply_action(config.codec.index[step.move.code])
            if step.drawn is not None:
                fresh.apply_action(step.drawn.id)
        if self.drawing:
            fresh.apply_action(config.codec.index[DRAW])
        return fresh

    def __str__(self) -> str:
        if self.round is None:
            return f"dealing: {len(self.dealt)} tiles dealt"
        from chickenfoot.interop.pettingzoo import render_text

        return render_text(self.round) + ("\n(drawing)" if self.drawing else "")


class ChickenfootObserver:
    """OpenSpiel's PyObserver for one seat: the seat-view features, plus placement history for perfect recall."""

    def __init__(self, game: pyspiel.Game, iig_obs_type: pyspiel.IIGObservationType, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported (got {params})")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private tiles is not supported")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.config = config = Config.of(game.get_parameters())
        self.encoder = ObservationEncoder(self.config.rules, self.config.players)
        tiles = config.rules.tile_count
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", self.encoder.size, (self.encoder.size,))]
        if self.perfect_recall:
            pieces += [("placed_by", tiles * config.players, (tiles, config.players)), ("play_order", tiles, (tiles,))]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        index = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[index : index + size].reshape(shape)
            index += size

    def _own_dealt(self, state: ChickenfootState, player: int) -> list[int]:
        size = self.config.hand_size
        return state.dealt[player * size : (player + 1) * size]

    def set_from(self, state: ChickenfootState, player: int) -> None:
        self.tensor.fill(0)
        view = state.view(player)
        features = self.dict["observation"]
        if view is None:
            if not self.public_only:
                for tile in self._own_dealt(state, player):
                    features[self.encoder.offsets["hand"]][tile] = 1
            return
        features[:] = self.encoder.encode(view)
        if self.public_only:
            features[self.encoder.offsets["hand"]] = 0
            features[self.encoder.offsets["drawn"]] = 0
        if self.perfect_recall:
            tiles = self.config.rules.tile_count
            placements = [step for step in view.history if step.move.tile is not None]
            for order, step in enumerate(placements):
                tile = step.move.code >> 8
                self.dict["placed_by"][tile, (step.seat - player) % self.config.players] = 1
                self.dict["play_order"][tile] = (order + 1) / tiles

    def string_from(self, state: ChickenfootState, player: int) -> str:
        view = state.view(player)
        who = "public" if self.public_only else f"p{player}"
        if view is None:
            own = "" if self.public_only else " ".join(str(TILES[t]) for t in self._own_dealt(state, player))
            return f"{who} dealing {len(state.dealt)}: {own}"
        hand = "" if self.public_only else " ".join(str(t) for t in view.hand)
        pending = " | drawing" if state.drawing else ""
        if self.perfect_recall:
            moves = " ".join(
                f"{step.seat}:{step.move}" + (f"+{step.drawn}" if step.drawn and not self.public_only else "")
                for step in view.history
            )
            return f"{who} hand {hand} | {moves}{pending}"
        ends = " ".join(f"{number}@{target}" for target, number in view.open_ends)
        lacks = " ".join(f"{mask:b}" for mask in lacked_numbers(view))
        drawn = f" drawn {view.drawn}" if view.drawn is not None and not self.public_only else ""
        return (
            f"{who} hand {hand}{drawn} | placed {len(view.layout)} | ends {ends} | sizes {view.hand_sizes}"
            f" | boneyard {view.boneyard_size} | to move {view.to_move} | lacks {lacks}{pending}"
        )


pyspiel.register_game(_game_type(False), ChickenfootGame)
