"""The duel rule set: the seam object the platform plays duels through (``match.MatchRules``).

The engine is ``rules/duel`` (pure); this module adds what a product needs around it: the
setup a person picks (preset, side, the CPU's strength), forms into moves, the words of the
platform's 投了 and 中止 and what 投了, time and leaving do to the game, the computer's move
through one adapter, and what each side
is shown — always from the engine's ``view`` of that side (RULES-DUEL §8), never from the
game itself, so a page cannot show what the side may not know.
"""

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from chalicelib.rules.duel import PRESETS, Duel, MoveError, play, preset, view
from chalicelib.rules.duel.draws import Draws
from chalicelib.rules.duel.errors import SetupError
from chalicelib.rules.duel.legal import Legal, legal_moves
from chalicelib.rules.duel.state import checked_wolves
from chalicelib.rules.duel.views import hindsight

from ..base import NoticeText
from ..match import RESIGN, MailReading, MatchRules, Offer, Played
from . import OFFER, forms, labels, mail

SIDES = ("A", "B")
# A player's mail, after the game's title (decision 56); the reminder's hours are the
# platform's (services/matches/play.py REMIND_BEFORE).
SUBJECTS = {
    "start": "対局が始まりました（あなたの番です）",  # the invited person sat: nobody moved yet
    "turn": "あなたの番です",
    "reminder": "〆切が近づいています",
    "end": "対局が終わりました",
}
# ランク戦 (the seed's 「考えた時間は伏せられます」): B's answer to a request that includes the
# seer is shown this long after the request, however fast it came, so its speed does not tell
# A whether a fake seer had to be made up; B's clock does not run meanwhile.
ANSWER_HOLD = 20
# The platform's endings (not §7 victories): 投了, on time, or gone a minute (decision 82).
FORFEITS = (RESIGN, "time", "gone")


class DuelRules:
    name = "duel"
    label = labels.GAME_LABEL
    page_template = "duel.html"
    setup_template = "duel_place.html"
    record_template = "duel_record.html"
    review_template = "duel_review.html"
    notice_templates = ("mail/match_notice.txt", "mail/match_notice.html")
    sides: tuple[str, ...] = SIDES
    verbs = labels.VERBS

    # ----- a new game -----

    def offer(self) -> Offer:
        return OFFER

    def check_setup(self, given: Mapping[str, str]) -> dict[str, Any]:
        name = given.get("preset", "")
        if name not in PRESETS:
            raise ValueError("配役を選んでください")
        side = given.get("side", "")
        if side not in (*SIDES, "random"):
            raise ValueError("陣営を A・B・ランダムから選んでください")
        strength = given.get("strength", "")
        if strength not in labels.STRENGTH_LABELS:  # the engine's ``cpu.STRENGTHS``
            raise ValueError("CPUの強さを選んでください")
        placement = given.get("placement", "random")
        if placement not in labels.PLACEMENTS:
            raise ValueError("人狼の配置を完全ランダムか手動配置から選んでください")
        wolves = forms.ticked(given, "wolf") if placement == "hand" else []
        if wolves and side != "B":
            raise ValueError("人狼を置けるのは B(人狼陣営)を持つときだけです")
        return {
            "preset": name,
            "side": side,
            "strength": strength,
            "placement": placement,
            "private": wolves or None,  # B's werewolves placed by hand (§3.1), never stored
        }

    def further_setup(self, setup: Mapping[str, Any], side: str) -> dict[str, Any] | None:
        """§3.1 手動配置: a person playing B puts the werewolves on cards of the board before
        the deal; the engine's own check of a placement is the refusal."""
        if side != "B" or setup.get("placement") != "hand":
            return None
        rules = preset(setup["preset"])
        message = None
        if setup.get("private"):
            try:
                checked_wolves(rules, setup["private"])
                return None
            except SetupError as refusal:
                message = str(refusal)
        return {
            "preset_label": labels.PRESET_LABELS[setup["preset"]],
            "board": rules.board,
            "wolves": rules.wolves,
            "columns": 4 if rules.board >= 16 else 3,
            "chosen": setup.get("private") or [],
            "message": message,
        }

    def create(self, setup: Mapping[str, Any], rng: random.Random) -> Duel:
        return Duel.setup(preset(setup["preset"]), Draws(rng), wolves=setup.get("private"))

    def recreate(self, setup: Mapping[str, Any], game: Duel, rng: random.Random) -> Duel:
        """The game's start (move 0) again, through the engine, from its stored setup and its
        own chance; B's hand placement, never stored, is read back from the ended game's cards
        (§3.1: the placement is the werewolves' cards). A deal that comes out otherwise is
        refused: the moves would be replayed on another game."""
        by_hand = setup.get("placement") == "hand" and setup.get("side") == "B"
        start = Duel.setup(
            preset(setup["preset"]), Draws(rng), wolves=game.wolves if by_hand else None
        )
        if start.cards != game.cards:
            raise ValueError("この対局は最初から並べ直せないため、感想戦を開けません")
        return start

    def parse(self, data: Any) -> Duel:
        return Duel.from_json(data)

    def dump(self, game: Duel) -> Any:
        return game.to_json()

    # ----- moves -----

    def to_move(self, game: Duel) -> str | None:
        return None if game.phase == "end" else game.phase[0]

    def play(self, game: Duel, side: str, move: Any, rng: random.Random) -> Played:
        """``move`` checked by the engine against its legal moves; a refusal changes nothing."""
        if not isinstance(move, Mapping):
            raise MoveError("手はオブジェクトで指定してください")
        played = Duel.from_json(game.to_json())
        play(played, side, move, rng)
        return Played(played, side, copy.deepcopy(dict(move)))

    def forfeit(self, game: Duel, side: str, how: str) -> Duel:
        if how not in FORFEITS:
            raise ValueError(f"unknown forfeit: {how}")
        ended = Duel.from_json(game.to_json())
        _forfeit(ended, side, how)
        return ended

    def computer_move(
        self, game: Duel, side: str, strength: str, rng: random.Random
    ) -> dict[str, Any]:
        """The computer sees only its side's view and a deep copy of its legal options."""
        from . import computer  # the CPU's search: a move against it, never a page, needs it

        legal = legal_moves(game, side)
        return computer.choose(
            view(game, side), replace(legal, options=copy.deepcopy(legal.options)), strength, rng
        )

    def move_from_form(self, game: Duel, side: str, form: Mapping[str, str]) -> dict[str, Any]:
        legal = legal_moves(game, side)
        if legal.turn is None:
            raise MoveError("いまはあなたの番ではありません")
        return forms.move_from_form(legal.turn, legal.options, form)

    def confirmation(self, game: Duel, side: str, form: Mapping[str, str]) -> str | None:
        """An execution (処刑) is asked once more: it cannot be undone (投了's question is
        ``labels.VERBS``')."""
        if form.get("do") == "execute" and legal_moves(game, side).turn == "A:day":
            card = form.get("card", "")
            if not (card.isascii() and card.isdigit()):
                return None  # the engine refuses it with its sentence
            return f"#{card} を処刑します。よろしいですか？"
        return None

    def hold(self, game: Duel) -> int:
        """A CO request naming the seer (whole, a range, the automatic one after a GJ, or the
        black-seer-only request) waits for B's answer; no other question is held."""
        question = game.question
        if game.phase != "B:answer" or question is None or question["do"] != "co":
            return 0
        return ANSWER_HOLD if "seer" in question["request"]["roles"] else 0

    def feats(self, game: Duel, side: str) -> tuple[str, ...]:
        """The duel's own achievements, read from the ended game (its truth is open then)."""
        if self.outcome(game, side) != "win":
            return ()
        earned = []
        if side == "B" and any(
            e["type"] == "execution" and e["pp"] and e["pp"]["winner"] == "B" for e in game.events
        ):
            earned.append("pp_won")
        seer = game.card_of("seer")
        if side == "A" and game.rules.preset == "12B" and seer in game.alive:
            earned.append("seer_kept_12b")  # on the board (not the first victim), alive
        return tuple(earned)

    # ----- play by mail (issue 27) -----

    def read_reply(self, game: Duel, side: str, text: str) -> MailReading:
        return mail.read(game, side, text)

    def reply_examples(self, game: Duel, side: str) -> list[list[str]]:
        return mail.examples(game, side)

    def board_lines(self, game: Duel, side: str) -> list[str]:
        return mail.board_text(game, side)

    def move_line(self, side: str, move: Any) -> str:
        return labels.move_text(side, move)

    # ----- what a side is shown -----

    def seen(self, game: Duel, side: str) -> dict[str, Any]:
        return view(game, side)

    def outcome(self, game: Duel, side: str) -> str | None:
        if game.ending is None:
            return None
        won = {"A": "village", "B": "wolves"}[side] == game.ending["winner"]
        return "win" if won else "loss"

    def notice(self, game: Duel, side: str, kind: str) -> NoticeText:
        """A player's mail: the game's title and side, the turn or the result — from the
        side's view only, like its page."""
        seen = view(game, side)
        title = labels.PRESET_LABELS.get(seen["rules"]["preset"] or "", "カスタム")
        return NoticeText(
            subject=f"{title} {labels.SIDE_SHORT[side]}：{SUBJECTS[kind]}",
            context={
                "title": title,
                "side_label": labels.SIDE_LABELS[side],
                "day": seen["day"],
                "turn": labels.TURN_LABELS.get(seen["next"] or "", ""),
                "ending": _ending(seen, side),
            },
        )

    def record(self, game: Duel) -> dict[str, Any]:
        """An ended game's public record (棋譜を共有): what both sides are shown after the end —
        every card, the review, the public log — never a side's own marks, B's PP guesses or
        anything of the players."""
        if game.phase != "end":
            raise ValueError("終わった対局だけを共有できます")
        seen = view(game, "A")  # after the end: the public record, the cards and the review
        summary = _summary(seen["ending"])
        return {
            "seen": seen,
            "board": [{**c, "known": None} for c in _board(seen, "A")],
            "columns": 4 if seen["board"] >= 16 else 3,
            "log": _log(seen),
            "review": _review(seen),
            "title": labels.PRESET_LABELS.get(seen["rules"]["preset"] or "", "カスタム"),
            "summary": summary,
            "rules_line": _rules_line(seen),
            "L": labels,
        }

    def review(
        self, position: Duel, final: Duel, steps: Sequence[tuple[str, Any]], number: int
    ) -> dict[str, Any]:
        """The review (感想戦) of the ended game ``final`` at ``position``, the game after the
        first ``number`` of its ``steps`` (side, move): everything true then (the engine's
        ``hindsight``), each side's view then (the engine's ``view``: exactly what that side
        was shown), and every move in a line, B's instructions included."""
        if final.phase != "end":
            raise ValueError("感想戦は対局が終わってから開けます")
        truth = hindsight(position)
        panels: dict[str, dict[str, Any]] = {}
        for side in SIDES:
            seen = view(position, side)
            panels[side] = {"seen": seen, "board": _board(seen, side)}
        shared = panels["A"]["seen"]
        return {
            "truth": truth,
            "truth_board": [
                {**c, "known": None, "truth": truth["cards"][c["card"]]}
                for c in _board(shared, "A")
            ],
            "panels": panels,
            "columns": 4 if position.board >= 16 else 3,
            "log": _log(shared),
            "moves": [(side, labels.move_text(side, move)) for side, move in steps],
            "continues": self.to_move(position) is not None,
            "title": labels.PRESET_LABELS.get(position.rules.preset or "", "カスタム"),
            "summary": _summary(view(final, "A")["ending"]),
            "rules_line": _rules_line(shared),
            "L": labels,
        }

    def page(self, game: Duel, side: str) -> dict[str, Any]:
        seen = view(game, side)
        legal = legal_moves(game, side)
        return {
            "seen": seen,
            "side": side,
            "board": _board(seen, side),
            "columns": 4 if seen["board"] >= 16 else 3,
            "log": _log(seen),
            "turn": seen["next"],
            "my_turn": legal.turn is not None,
            "legal": _options(legal),
            "ending": _ending(seen, side),
            "review": _review(seen) if "review" in seen else None,
            "rules_line": _rules_line(seen),
            "L": labels,
        }


def _forfeit(duel: Duel, side: str, at: str) -> None:
    """The game ends by resigning, on time or by leaving: the other side wins (never the
    fox)."""
    duel.ending = {
        "winner": "wolves" if side == "A" else "village",
        "day": duel.day,
        "at": at,
        "by": side,
    }
    duel.phase = "end"
    duel.question = None


def _summary(ending: Mapping[str, Any]) -> str:
    """How a game ended, in a line: the winner, the day, the moment (and who forfeited)."""
    by = ending.get("by")
    return (
        f"{labels.WINNER_LABELS[ending['winner']]}"
        f"({ending['day']}日目・{labels.AT_LABELS.get(ending['at'], ending['at'])}"
        f"{':' + labels.SIDE_SHORT[by] if by else ''})"
    )


def _board(seen: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    alive = set(seen["alive"])
    own = set(seen.get("masons", [])) | set(seen.get("wolves", []))
    own_role = "mason" if side == "A" else "werewolf"
    cards = seen.get("cards")
    board = []
    for c in range(1, seen["board"] + 1):
        claim = seen["claims"].get(str(c))
        board.append(
            {
                "card": c,
                "alive": c in alive,
                "claim": claim,
                "known": own_role if c in own else None,
                "truth": cards[c] if cards else None,
            }
        )
    return board


def _log(seen: Mapping[str, Any]) -> list[tuple[int, list[list[str]]]]:
    """The public events grouped by day (a night's orders under its day, its morning under the
    next), newest day first."""
    days: dict[int, list[list[str]]] = {}
    for event in seen["events"]:
        if lines := labels.event_lines(event):
            days.setdefault(event["day"], []).append(lines)
    return sorted(days.items(), reverse=True)


def _options(legal: Legal) -> dict[str, Any]:
    return {"turn": legal.turn, "living": list(legal.living), "board": legal.board, **legal.options}


def _ending(seen: Mapping[str, Any], side: str) -> dict[str, Any] | None:
    ending = seen["ending"]
    if ending is None:
        return None
    won = {"A": "village", "B": "wolves"}[side] == ending["winner"]
    return {
        "winner": labels.WINNER_LABELS[ending["winner"]],
        "at": labels.AT_LABELS.get(ending["at"], ending["at"]),
        "day": ending["day"],
        "by": ending.get("by"),
        "won": won,
    }


def _review(seen: Mapping[str, Any]) -> dict[str, Any]:
    review = seen["review"]
    cards = seen["cards"]
    return {
        "cards": [(c, labels.ROLE_LABELS[r]) for c, r in enumerate(cards) if r is not None],
        "oracle": review["oracle"],
        "fox_mode": labels.FOX_MODE_LABELS.get(review["fox_mode"] or "", None),
        "nights": review["nights"],
    }


def _rules_line(seen: Mapping[str, Any]) -> str:
    rules = seen["rules"]
    deck = "・".join(f"{labels.ROLE_LABELS[r]}{n}" for r, n in rules["deck"].items())
    name = labels.PRESET_LABELS.get(rules["preset"] or "", "カスタム")
    extras = [
        "欠けあり" if rules["missing"] else "欠けなし",
        "初日白" if rules["first_day"] == "white" else "初日黒あり",
    ]
    if rules["pp"]:
        extras.append("PP・RPPあり")
    if rules["gidra"]:
        extras.append("ギドラCO")
    if rules["black_seer_co"]:
        extras.append("黒引き占い師のみCO要請あり")
    return f"{name}: {deck}({'・'.join(extras)})"


DUEL: MatchRules[Duel] = DuelRules()
