"""A computer member's play of Mobius (RULES §3–§7), from its seat's view only. Pure.

``turn(view, rng)`` reads the plain data ``visibility.seat_view`` builds for one seat — never
the village, the game, its seed or the engine — and the member's own secret RNG, and answers
with the choices a person's action form would save and a few short posts of the day.

How it plays (decisions 110, 113, 180–182):
- It reads today's posts of the boards its seat may read (the view's ``heard``, kept by
  ``visibility.heard_by``): the results members tell on the public board, the prayers they
  announce, the oni side's proposals on the oni world, and questions put to it by any name a
  player would use or by an anchor to its post, which it answers.
- The human side prays for an oni it knows (its own results, its partner's empathy), else for
  whom a DM named, else for one it knows lies about a result, else for whom a result it cannot
  disprove calls 鬼, else, with no reason, now and then the prayer the board's announced
  prayers gather on, or one of the first three characters nobody cleared in the village's
  public order of the day (the first most often), so that those who know nothing lean one
  way as a village's talk would without all agreeing; seers
  divine whom they have not seen; guards protect the seers, then the mediums, then the
  assassin; the assassin strikes a known oni, or from day 2 now and then someone uncleared.
- The oni side (the 3 oni and the madman) knows the placement: it prays for humans (one the
  board calls 鬼 first), votes the attack on a human (a seer, medium or the assassin first) and
  agrees with the votes and proposals its partners made first; it follows a partner's forced
  judgment and declaration but never starts one, resigns when one oni is left against five
  humans or more, and leaves a fake DM naming a human.
- A choice once saved stands for the day (the platform asks again and again); only what
  changes is answered. Posts: up to two a day, one at a time, the first as the day starts,
  only on boards it may write: its job's news as its side would tell it (the oni side covers
  its own and now and then frames a human) and whom it prays for and why; the side's plan on
  the oni world; in the grave who struck it; and up to four answers a day (decision 111),
  each line in a phrasing nobody said on that board today. Once its side's command ends the
  game it says nothing more.
"""

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from random import Random
from typing import Any

from ...rules import talk
from ...rules.mobius import CHOICE_KEYS, JOBS, SLOTS
from ..turns import ComputerTurn

# Jobs the oni side would rather see dead: their results expose it.
THREATS = ("seer", "medium", "assassin")
ASSASSINATE_RATE = 0.3  # a day, from day 2, with no known oni
RESIGN_AGAINST = 5  # living humans against one living oni: the oni side resigns
FRAME_RATE = 0.3  # an oni-side reporter calls a human 鬼
MAX_POSTS = 2
# The first post as the day starts; the k-th after it at k * POST_GAP of the day period, plus
# STAGGER per seat in slot order: all of them well before the deadline.
POST_GAP = 0.25
STAGGER = 0.01
VERDICT_WORDS = {"human": "人", "oni": "鬼", "unknown": "不明"}
# Reading the boards (decision 110): the jobs whose results a member may tell, the words a
# result is told with, and what makes a post a question or an accusation naming someone.
RESULT_JOBS = ("seer", "medium", "empath", "assassin")
DM_WORDS = ("ダイイングメッセージ", "DM")
ONI_WORD, HUMAN_WORD = "鬼", "人"
ASK_WORDS = (*talk.QUESTION_WORDS, "怪しい", "あやしい", "疑", "鬼")
PRAY_WORD = "祈"
ATTACK_WORDS = ("襲撃", "襲", "噛")
ATTACKER_WORD = "実行犯"
# It listens for questions at each twelfth of the day and once more just before the deadline
# (so that a question is answered before the update), and answers at most this many a day
# (besides its two paced posts).
LISTENS = 12
LAST_LISTEN = 0.97
MAX_ANSWERS = 4
# With no reason of its own (decision 180): how often it joins the prayer the board's
# announced prayers gather on, and else its weights for the first, second and third character
# of the village's order of the day.
FOLLOW_RATE = 0.5
LEANINGS = (0.7, 0.2, 0.1)


class _Seat:
    """The view, read once: who the seat knows as human or oni, and what it may pick."""

    def __init__(self, view: Mapping[str, Any], rng: Random) -> None:
        self.view = view
        self.rng = rng
        self.slot: str = view["slot"]
        self.job: str = view["job"]
        self.oni_side = view["side"] != "human"
        self.alive: list[str] = view["alive"]
        self.legal: Mapping[str, list[str]] = view["legal"]
        private = view["private"]
        self.private = private
        self.known: dict[str, str] = {}  # slot -> human | oni, as this seat knows it
        if self.oni_side:
            placement = private["placement"]
            self.known = {s: "oni" if placement.get(s) == "oni" else "human" for s in view["names"]}
            self.humans = [s for s in self.alive if s not in placement]
        else:
            for result in self._results():
                if result["verdict"] != "unknown":
                    self.known[result["target"]] = result["verdict"]
            self.known[self.slot] = "human"
            self.humans = []
        self.named = [dm["names"] for dm in private["dms"].values()]  # by DMs, newest last
        self.names = talk.cores(view["names"])
        self.said = _claims(self)
        # Why it prays as it does, when it has a reason: its kind (``REASONS``) and the names
        # its lines say.
        self.why: tuple[str, dict[str, str]] | None = None

    def _results(self) -> list[dict[str, str]]:
        private = self.private
        found = [private[key] for key in ("random_divination", "empathy") if private[key]]
        return found + [private["results"][day] for day in sorted(private["results"])]

    @property
    def first(self) -> bool:
        """Its first turn of the day (nothing saved yet): the day's own draws happen then."""
        return not self.view["own"]

    def kept(self, key: str) -> list[str]:
        """What it saved today for ``key``, while still legal: a choice, once made, stands."""
        own = self.view["own"].get(key)
        return [own] if own in self.legal.get(key, []) else []

    def living(self, verdict: str) -> list[str]:
        return [s for s in self.alive if s != self.slot and self.known.get(s) == verdict]

    def pick(self, key: str, *preferred: Sequence[str]) -> str | None:
        """The first non-empty of ``preferred`` that is legal for ``key``, at random; else any
        legal target; None when ``key`` is not this seat's now."""
        legal = self.legal.get(key, [])
        for group in preferred:
            options = [t for t in group if t in legal]
            if options:
                return self.rng.choice(options)
        return self.rng.choice(legal) if legal else None


# ----- reading the boards (decision 110) -----


class _Claim:
    """What one member told on the public board today: whom its results call 鬼 or 人."""

    def __init__(self) -> None:
        self.oni: set[str] = set()
        self.human: set[str] = set()


def _sentences(text: str) -> list[str]:
    return [s for s in text.replace("\n", "。").replace("！", "。").split("。") if s]


def _claims(seat: _Seat) -> dict[str, _Claim]:
    """Today's results told on the public board by others (their jobs are public, RULES §1):
    a sentence of a seer, a medium, an empath or the assassin that names one other member
    and 鬼 or 人; a DM told by anyone (the last member the sentence names is the one it
    points at, as a killer: 鬼)."""
    said: dict[str, _Claim] = {}
    for post in seat.view["heard"]:
        speaker = post["slot"]
        if post["board"] != "public" or speaker == seat.slot:
            continue
        for sentence in _sentences(post["text"]):
            named = [s for s in talk.named_in(seat.names, sentence) if s != speaker]
            words = talk.without_names(seat.names, sentence)
            if named and any(w in words for w in DM_WORDS):
                said.setdefault(speaker, _Claim()).oni.add(named[-1])
            elif len(named) == 1 and JOBS[speaker] in RESULT_JOBS:
                if ONI_WORD in words:
                    said.setdefault(speaker, _Claim()).oni.add(named[0])
                elif HUMAN_WORD in words:
                    said.setdefault(speaker, _Claim()).human.add(named[0])
    return said


def _liars(seat: _Seat) -> set[str]:
    """Those whose told results the seat knows are false: 鬼 of one it knows is human (itself
    included), 人 of one it knows is oni, or who are oni themselves."""
    return {
        speaker
        for speaker, claim in seat.said.items()
        if seat.known.get(speaker) == "oni"
        or any(seat.known.get(s) == "human" for s in claim.oni)
        or any(seat.known.get(s) == "oni" for s in claim.human)
    }


def _told(seat: _Seat, verdict: str) -> dict[str, str]:
    """Whom the results it cannot disprove call ``verdict`` (oni | human), and by whom (the
    first teller in slot order): a modest player believes what it cannot disprove."""
    lying = _liars(seat)
    told: dict[str, str] = {}
    for speaker in sorted(seat.said, key=SLOTS.index):
        if speaker in lying:
            continue
        claim = seat.said[speaker]
        for target in sorted(claim.oni if verdict == "oni" else claim.human):
            if target != seat.slot and seat.known.get(target) is None:
                told.setdefault(target, speaker)
    return told


def _proposal(seat: _Seat, key: str) -> list[str]:
    """For the oni side: the latest partner's proposal on the oni world, for ``key`` (attack:
    whom a sentence with 襲撃 names first; attacker: whom it names after 実行犯)."""
    for post in reversed(seat.view["heard"]):
        if post["board"] != "oni" or post["slot"] == seat.slot:
            continue
        for sentence in _sentences(post["text"]):
            cut = sentence.find(ATTACKER_WORD)
            if key == "attacker" and cut >= 0:
                found = talk.named_in(seat.names, sentence[cut:])
            elif key == "attack" and any(w in sentence for w in ATTACK_WORDS):
                found = talk.named_in(seat.names, sentence if cut < 0 else sentence[:cut])
            else:
                continue
            if found:
                return found[:1]
    return []


def _threats(slots: Sequence[str]) -> list[list[str]]:
    """``slots`` by the jobs the oni side fears, most feared first (seers, mediums, the
    assassin): what an attack looks for, and what a guard protects."""
    return [[s for s in slots if s.split("_")[0] == job] for job in THREATS]


def turn(view: Mapping[str, Any], rng: Random) -> ComputerTurn:
    """What the seat does now: only the choices that differ from what it has saved today
    (it keeps what it chose unless the boards give it a firmer reason, and follows its
    side's shared votes and proposals), and at most one post: the next of the day's paced
    posts when it is due, else an answer to one who named it; ``again``: when the next post
    is due or it listens next."""
    seat = _Seat(view, rng)
    wanted = _oni_side_choices(seat) if seat.oni_side else _human_choices(seat)
    own = view["own"]
    changed = {k: wanted.get(k) for k in CHOICE_KEYS if wanted.get(k) != own.get(k)}
    if _over(seat, wanted):  # the side's command ends the game: no more game talk
        return ComputerTurn(changed, ())
    posts, again = _paced(seat, _plan(seat, wanted))
    if not posts and (asked := _asked(seat)) is not None:
        posts = [(asked["board"], _answer(seat, asked, wanted))]
    return ComputerTurn(changed, posts, again=_listening(seat, again))


def _over(seat: _Seat, choices: Mapping[str, str | None]) -> bool:
    """Whether the oni side, as this seat sees it, has the three votes of one command that
    ends the game (RULES §7), its own choices now included: what it would say then is moot."""
    votes = [*seat.view["team"].values(), choices]
    return any(sum(1 for made in votes if made.get(key)) >= 3 for key in ("victory", "resign"))


def _human_choices(seat: _Seat) -> dict[str, str | None]:
    oni = seat.living("oni")
    named = [s for s in reversed(seat.named) if s in seat.alive and s not in seat.known]
    unknown = [s for s in seat.alive if s not in seat.known]
    choices = {"pray": _pray(seat, oni, named, unknown)}
    if seat.job == "seer":
        choices["divine"] = seat.pick("divine", seat.kept("divine"), unknown)
    if seat.job == "guard":
        # The oni side strikes those whose results expose it: guard them first.
        threats = _threats([s for s in seat.alive if seat.known.get(s) != "oni"])
        choices["guard"] = seat.pick("guard", seat.kept("guard"), *threats)
    if seat.job == "assassin" and seat.legal["assassinate"]:
        if oni or seat.kept("assassinate"):
            choices["assassinate"] = seat.pick("assassinate", seat.kept("assassinate"), oni)
        elif seat.first and seat.view["day"] >= 2 and seat.rng.random() < ASSASSINATE_RATE:
            choices["assassinate"] = seat.pick("assassinate", named, unknown)
    return {key: value for key, value in choices.items() if value is not None}


def _pray(seat: _Seat, oni: list[str], named: list[str], unknown: list[str]) -> str | None:
    """The human side's prayer, from its firmest reason: an oni it knows, whom its DM named,
    one it knows lies about a result, whom a result it cannot disprove calls 鬼; else the
    village's order of the day among those nobody cleared. It keeps its prayer while it has
    no firmer reason, and says why (``seat.why``)."""
    lying = [s for s in _liars(seat) if s in seat.alive and seat.known.get(s) != "human"]
    black, white = _told(seat, "oni"), _told(seat, "human")
    uncleared = [s for s in unknown if s not in white] or unknown
    reasons: list[tuple[list[str], str | None]] = [
        (oni, "oni"),
        (named, "dm"),
        (lying, "liar"),
        (list(black), "black"),
        (uncleared, None),
    ]
    legal = seat.legal.get("pray", [])
    for group, kind in reasons:
        options = [s for s in group if s in legal]
        if not options:
            continue
        own = seat.view["own"].get("pray")
        if own in options:
            target = own
        elif kind is None:
            target, kind = _lean(seat, options)
        else:
            target = _consensus(seat, options)[0]
        facts: dict[str, str] = {}
        if target in black:
            kind, facts = "black", {"teller": _call(seat, black[target])}
        seat.why = (kind, facts) if kind is not None else None
        return target
    return None


def _lean(seat: _Seat, options: Sequence[str]) -> tuple[str, str | None]:
    """With no reason of its own: now and then the prayer the board's announced prayers gather
    on among the first three of the village's order of the day (and it says so: ``follow``),
    else one of those three, the first most often — a village's talk converges, but not every
    voice agrees (decision 183)."""
    order = _consensus(seat, options, len(LEANINGS))
    # Only a gathering on one it would consider itself: the oni side announces prayers for
    # humans, and a village that followed any gathering would follow them.
    gathered = _announced(seat, order)
    if gathered and seat.rng.random() < FOLLOW_RATE:
        most = max(gathered.values())
        return _consensus(seat, [s for s, n in gathered.items() if n == most])[0], "follow"
    return seat.rng.choices(order, weights=LEANINGS[: len(order)])[0], None


def _announced(seat: _Seat, options: Sequence[str]) -> dict[str, int]:
    """How many others said today on the public board that they pray for each of ``options``:
    a sentence with 祈 naming one member besides its writer (each writer's latest counts)."""
    latest: dict[str, str] = {}
    for post in seat.view["heard"]:
        if post["board"] != "public" or post["slot"] == seat.slot:
            continue
        for sentence in _sentences(post["text"]):
            named = [s for s in talk.named_in(seat.names, sentence) if s != post["slot"]]
            if len(named) == 1 and PRAY_WORD in talk.without_names(seat.names, sentence):
                latest[post["slot"]] = named[0]
    counted: dict[str, int] = {}
    for target in latest.values():
        if target in options:
            counted[target] = counted.get(target, 0) + 1
    return counted


def _consensus(seat: _Seat, candidates: Sequence[str], first: int = 1) -> list[str]:
    """The first ``first`` of ``candidates`` in the village's public order of the day (the
    names and the day, hashed): computer members who know nothing better lean the same way,
    as a village's talk would, instead of scattering prayers a few oni votes would decide."""
    day, names = seat.view["day"], seat.view["names"]
    order = sorted(candidates, key=lambda s: hashlib.sha256(f"{day}:{names[s]}".encode()).digest())
    return order[:first]


def _side_vote(seat: _Seat, key: str) -> list[str]:
    """The oni side's vote for ``key`` (RULES §4.2 draws one vote: the side agrees): a person
    partner's call first (a computer defers to the person it plays with), else its own while
    a partner shares it or nobody has voted, else the partners' most common legal vote(s)."""
    legal = seat.legal.get(key, [])
    votes = {owner: v for owner, made in seat.view["team"].items() if (v := made.get(key)) in legal}
    people = [v for owner, v in votes.items() if owner not in seat.view["computers"]]
    own = seat.view["own"].get(key)
    if people:
        return [own] if own in people else _most(people)
    proposed = [p for p in _proposal(seat, key) if p in legal]
    if proposed:  # a partner's call on the oni world, the latest first
        return proposed
    team = list(votes.values())
    if own in legal and (not team or own in team):
        return [own]
    return _most(team)


def _most(votes: list[str]) -> list[str]:
    most = max((votes.count(v) for v in votes), default=0)
    return sorted({v for v in votes if votes.count(v) == most})


def _oni_side_choices(seat: _Seat) -> dict[str, str | None]:
    humans = seat.humans
    threats = _threats(humans)
    oni = [s for s in seat.alive if seat.known.get(s) == "oni"]
    choices: dict[str, str | None] = {}
    if seat.slot in seat.alive:
        # A human the board calls 鬼 (its side's frame, or a human's mistake): it joins in.
        framed = sorted({s for claim in seat.said.values() for s in claim.oni} & set(humans))
        pray = (_side_vote(seat, "force"), framed, seat.kept("pray"), humans)
        choices["pray"] = seat.pick("pray", *pray)
        if seat.job == "seer":
            choices["divine"] = seat.pick("divine", seat.kept("divine"), humans)
        if seat.job == "guard":
            partners = [s for s in oni if s != seat.slot]
            choices["guard"] = seat.pick("guard", seat.kept("guard"), partners, humans)
        if seat.job == "assassin" and seat.legal["assassinate"]:
            if seat.kept("assassinate"):
                choices["assassinate"] = seat.kept("assassinate")[0]
            elif seat.first and seat.view["day"] >= 2 and seat.rng.random() < ASSASSINATE_RATE:
                choices["assassinate"] = seat.pick("assassinate", *threats, humans)
    choices["attack"] = seat.pick("attack", _side_vote(seat, "attack"), *threats, humans)
    choices["attacker"] = seat.pick("attacker", _side_vote(seat, "attacker"))
    if seat.job == "commoner":
        others = [s for s in humans if s != seat.view["partner"]]
        choices["dm"] = seat.pick("dm", seat.kept("dm"), others)
    if _side_vote(seat, "force"):  # a partner's call: the side agrees (RULES §7)
        choices["force"] = seat.pick("force", _side_vote(seat, "force"))
    command = _command(seat, len(oni), len(humans))
    if command is not None:
        choices[command] = seat.slot  # the safety pick: itself
    return {key: value for key, value in choices.items() if value is not None}


def _command(seat: _Seat, oni: int, humans: int) -> str | None:
    """A declaration or resignation (RULES §7): kept once set, joined when a partner has set
    it; a computer member itself never declares (the side cannot be sure of winning, and a
    declaration ends the game at once), and resigns when an oni is left alone against five
    humans or more."""
    for key in ("victory", "resign"):
        if key in seat.view["own"]:
            return key
    for key in ("victory", "resign"):
        if any(key in votes for votes in seat.view["team"].values()):
            return key
    if oni == 1 and humans >= RESIGN_AGAINST:
        return "resign"
    return None


# ----- posts -----


def _plan(seat: _Seat, choices: Mapping[str, str | None]) -> list[tuple[str, str]]:
    """The day's posts, in order: on the public board its job's news and its prayer, on the
    oni world the side's plan, in the grave who struck it (each board as the seat may write
    it in the day: RULES §8)."""
    posts: list[tuple[str, str]] = []
    pray = choices.get("pray")
    if seat.slot in seat.alive and pray is not None:
        posts.append(("public", _pray_words(seat, pray, _report(seat))))
    if seat.oni_side:
        posts.append(("oni", _plan_words(seat, choices)))
    elif seat.slot not in seat.alive:
        posts.append(("grave", _grave_words(seat)))
    return posts[:MAX_POSTS]


def _paced(
    seat: _Seat, plan: Sequence[tuple[str, str]]
) -> tuple[list[tuple[str, str]], datetime | None]:
    """One post when the next one of the day is due, and when the next is due: the first as
    the day starts (the morning's look, which comes however the clock is moved), each later
    one at a share of the day staggered by seat, so that members do not all speak at once."""
    clock = seat.view["clock"]
    start, length, now = clock["day_started_at"], clock["day_length"], clock["now"]
    if start is None:
        return [], None
    stagger = SLOTS.index(seat.slot) * STAGGER
    times = [start + length * (k * POST_GAP + stagger) if k else start for k in range(len(plan))]
    last = clock["last_post_at"]
    done = sum(1 for t in times if last is not None and last >= t)
    posts = []
    if done < len(plan) and now >= times[done] and plan[done][0] in seat.view["writable"]:
        posts.append(plan[done])
    return posts, min((t for t in times if t > now), default=None)


def _name(seat: _Seat, slot: str) -> str:
    return str(seat.view["names"][slot])


def _call(seat: _Seat, slot: str) -> str:
    """How a player calls a member in a line: the character's given name (the last word of
    its public name, the seat's label dropped) and さん."""
    return f"{talk.aliases(_name(seat, slot))[-1]}さん"


def _said(seat: _Seat, board: str) -> list[str]:
    """Everything said on ``board`` today, as the seat reads it."""
    return [post["text"] for post in seat.view["heard"] if post["board"] == board]


def _today(seat: _Seat) -> dict[str, str] | None:
    """The result that reached this seat this morning (day 1: the random one or empathy)."""
    private, day = seat.private, seat.view["day"]
    if day == 1:
        first = private["random_divination"] or private["empathy"]
        return dict(first) if first else None
    result = private["results"].get(day)
    return dict(result) if result else None


# The phrasings of each line (decision 180): a computer draws one nobody said today. Each keeps
# the words the boards are read by: a result in one sentence naming its target with 鬼 or 人,
# a plan's 襲撃 before its 実行犯.
REPORTS = {
    "seer": ("{what}の結果です。{name}は{said}でした。", "{what}の結果、{name}は{said}でした。"),
    "empath": (
        "共感の結果、相方の{name}は{said}でした。",
        "共感で分かりました。相方の{name}は{said}です。",
    ),
    "medium": (
        "霊能の結果です。裁かれた{name}は{said}でした。",
        "霊能の結果、裁かれた{name}は{said}でした。",
    ),
    "assassin": ("暗殺の結果です。{name}は{said}でした。", "暗殺した{name}は{said}でした。"),
}
DM_LINES = (
    "{writer}のダイイングメッセージは{names}を指していました。",
    "{writer}のダイイングメッセージが{names}を指していました。",
)
PRAY_LINES = (
    "今日は{name}に祈ります。",
    "{name}に祈ることにします。",
    "祈り先は{name}にします。",
    "私は{name}に祈ります。",
    "今日の祈りは{name}です。",
)
PRAYING_LINES = ("今日は{name}に祈っています。", "祈り先は{name}です。", "{name}に祈っています。")
NO_REASON = (
    "決め手はありませんが、まだ結果の出ていない中から選びました。",
    "手がかりがないので、まだ確かめられていない中から選びます。",
    "確かな根拠はありません。皆さんの考えも聞かせてください。",
    "はっきりした理由はないので、違うと思ったら止めてください。",
    "結果の出ていない中から、なんとなくです。",
    "まだ何も見えていないので、仮の祈り先です。",
)
REASONS = {
    "oni": (
        "鬼だと分かっているからです。",
        "私の結果で鬼と出ています。",
        "鬼だと知っているので迷いません。",
    ),
    "dm": (
        "ダイイングメッセージが指していたからです。",
        "ダイイングメッセージがこの方を指していました。",
    ),
    "liar": (
        "結果が私の知っていることと食い違うからです。",
        "言っている結果が、私の知っていることと合いません。",
    ),
    # The teller is named without 鬼 in the same sentence: that would read as a result of its own.
    "black": ("{teller}の結果を信じるからです。", "{teller}の出した結果を信じます。"),
    "follow": (
        "祈りが集まっているので、私も合わせます。",
        "祈りがまとまりそうなので、合わせます。",
        "皆さんの祈りに合わせます。",
    ),
}
ADDRESSES = (
    "{who}、お答えします。",
    "{who}、返事をします。",
    "{who}、聞いてくれてありがとうございます。",
)
CLAIMS = ("私は人です。", "人ですよ、信じてください。", "私は人間側です。")
ATTACK_LINES = (
    "今夜は{attack}を襲撃しましょう{by}。",
    "{attack}を襲撃しませんか{by}。",
    "襲撃は{attack}でどうでしょう{by}。",
)
FORCE_LINES = ("{name}を強制裁きにしましょう。", "{name}に強制裁きをかけましょう。")
VICTORY_LINES = ("勝ちが見えました。勝利宣言しましょう。", "もう勝てます。勝利宣言しましょう。")
RESIGN_LINES = ("ここまでのようです。投了しましょう。", "勝ち目はなさそうです。投了しましょう。")
WAIT_LINES = (
    "今日は様子を見ます。",
    "今日は動かずに様子を見ましょう。",
    "今日は皆さんに合わせます。",
)
WATCH_LINES = (
    "墓の下から見守ります。",
    "あとは皆さんに任せて、ここから見守ります。",
    "墓の下から応援しています。",
)
STRUCK_LINES = (
    "私を手にかけたのは{name}でした。あとは頼みます。",
    "私を襲ったのは{name}です。あとは頼みます。",
)
CLASHED_LINES = (
    "最期の夜、{name}とぶつかりました。あとは頼みます。",
    "最期の夜に{name}と相打ちになりました。あとは頼みます。",
)


def _report(seat: _Seat) -> list[str]:
    """Its job's news of the morning, as its side would tell it, in each of its phrasings
    (none: no news)."""
    result = _today(seat)
    if result is None:
        return _dm_words(seat)
    target, verdict = result["target"], result["verdict"]
    if seat.oni_side:
        verdict = _cover(seat, target, verdict)
    what = "初日のランダム占い" if seat.view["day"] == 1 else "占い"
    facts = {"what": what, "name": _name(seat, target), "said": VERDICT_WORDS[verdict]}
    return [line.format(**facts) for line in REPORTS[seat.job]]


def _cover(seat: _Seat, target: str, verdict: str) -> str:
    """What the oni side says of a result: its own are human; a human is sometimes framed."""
    if verdict == "unknown":
        return verdict
    if target in seat.private["placement"]:
        return "human"
    return "oni" if seat.rng.random() < FRAME_RATE else "human"


def _dm_words(seat: _Seat) -> list[str]:
    """A DM that reached this commoner this morning; the oni side keeps one naming its own."""
    dm = seat.private["dms"].get(seat.view["day"])
    if dm is None or (seat.oni_side and dm["names"] in seat.private["placement"]):
        return []
    facts = {"writer": _name(seat, dm["from"]), "names": _name(seat, dm["names"])}
    return [line.format(**facts) for line in DM_LINES]


def _reasons(seat: _Seat) -> Sequence[str]:
    """Why it prays as it does, in each of its phrasings (the oni side gives none of its own)."""
    if seat.oni_side or seat.why is None:
        return NO_REASON
    kind, facts = seat.why
    return [line.format(**facts) for line in REASONS[kind]]


def _pray_words(seat: _Seat, target: str, report: Sequence[str]) -> str:
    """Its news of the morning (``report``'s phrasings, if any) and whom it prays for and why,
    in a phrasing none of whose lines was said on the public board today."""
    name = _name(seat, target)
    lines = [f"{pray.format(name=name)}{why}" for pray in PRAY_LINES for why in _reasons(seat)]
    if report:
        lines = [f"{news}\n{line}" for news in report for line in lines]
    return talk.fresh(seat.rng, lines, _said(seat, "public"))


def _plan_words(seat: _Seat, choices: Mapping[str, str | None]) -> str:
    """The side's plan on the oni world, in a phrasing nobody said there today."""
    parts: list[Sequence[str]] = []
    attack, attacker = choices.get("attack"), choices.get("attacker")
    if attack is not None:
        by = f"、実行犯は{_name(seat, attacker)}" if attacker is not None else ""
        parts.append([line.format(attack=_name(seat, attack), by=by) for line in ATTACK_LINES])
    force = choices.get("force")
    if force is not None:
        parts.append([line.format(name=_name(seat, force)) for line in FORCE_LINES])
    if choices.get("victory") is not None:
        parts.append(VICTORY_LINES)
    if choices.get("resign") is not None:
        parts.append(RESIGN_LINES)
    lines = [""]
    for part in parts:
        lines = [f"{done}{line}" for done in lines for line in part]
    return talk.fresh(seat.rng, lines if parts else WAIT_LINES, _said(seat, "oni"))


def _grave_words(seat: _Seat) -> str:
    killer = seat.private["killer"]
    if killer is None:
        lines: Sequence[str] = WATCH_LINES
    else:
        # A fallen guard learns whom it intercepted (RULES §5.7).
        said = CLASHED_LINES if seat.job == "guard" else STRUCK_LINES
        lines = [line.format(name=_name(seat, str(killer["slot"]))) for line in said]
    return talk.fresh(seat.rng, lines, _said(seat, "grave"))


# ----- answers (decision 110) -----


def _asked(seat: _Seat) -> dict[str, Any] | None:
    """The latest post since its own last one, on a board it may write now, that asks it
    something: it names the seat by any name a player would use (the whole name, the seat,
    the given name) or anchors one of its posts (``>>n``), with a question or an accusation
    (None once it has answered its fill)."""
    heard, last = seat.view["heard"], seat.view["clock"]["last_post_at"]
    if sum(1 for post in heard if post["slot"] == seat.slot) >= MAX_POSTS + MAX_ANSWERS:
        return None
    day = seat.view["day"]
    for post in reversed(heard):
        if last is not None and post["at"] <= last:
            return None
        if post["slot"] == seat.slot or post["board"] not in seat.view["writable"]:
            continue
        own = [p.get("n") for p in heard if p["slot"] == seat.slot and p["board"] == post["board"]]
        mine = [n for n in own if n is not None]
        if any(
            talk.addressed(seat.names, seat.slot, mine, sentence, day, ASK_WORDS)
            for sentence in _sentences(post["text"])
        ):
            return dict(post)
    return None


def _answer(seat: _Seat, post: Mapping[str, Any], choices: Mapping[str, str | None]) -> str:
    """One short line to whoever asked it, true to its view (the oni side says what its side
    would: that it is human), in a phrasing nobody said on that board today: on the public
    board its side, its news of the morning (the human side's, truly) and whom it prays for
    and why; its side's plan on the oni world; in the grave who struck it."""
    board = post["board"]
    address = [line.format(who=_call(seat, post["slot"])) for line in ADDRESSES]
    if board == "oni":
        body = [_plan_words(seat, choices)]
    elif board == "grave":
        body = [_grave_words(seat)]
    else:
        news = [""] if seat.oni_side else _report(seat) or [""]
        body = [claim + report for claim in CLAIMS for report in news]
        pray = choices.get("pray")
        if pray is not None:
            name = _name(seat, pray)
            why = [""] if seat.oni_side else _reasons(seat)
            praying = [p.format(name=name) + w for p in PRAYING_LINES for w in why]
            body = [f"{line}{more}" for line in body for more in praying]
    return talk.fresh(seat.rng, [a + b for a in address for b in body], _said(seat, board))


def _listening(seat: _Seat, again: datetime | None) -> datetime | None:
    """``again``, or sooner the next moment it listens for a question (``LISTENS``)."""
    clock = seat.view["clock"]
    start, length, now = clock["day_started_at"], clock["day_length"], clock["now"]
    if start is None:
        return again
    shares = [*(k / LISTENS for k in range(1, LISTENS)), LAST_LISTEN]
    listen = [start + length * share for share in shares]
    return min((t for t in (*listen, again) if t is not None and t > now), default=None)
