"""The classic computer player (CPU): one seat's turn from that seat's view only. Pure.

The caller (the classic rule set) builds the view through the visibility module: plain data of
what the seat may see — its own role, partners and results, the public deaths and votes, the
targets it may choose now, its own saved choices, the moments the village's talk runs by, and
today's posts on the boards it may read — and hands it here with the computer's own random
generator. Nothing here sees the game itself.

A turn plays like a modest person of its role (decisions-classic 59–61, 72):

- it votes after a third of the day's talk (at once in the overtime and re-votes; a short
  village's vote is final): for a wolf its results found, a claimer it knows is lying, or
  whom a seer claimer it cannot disprove calls a wolf, else at random, sparing those it
  knows or takes for human; a wolf votes its accusers;
- it sets tonight's abilities at the first look of the day (§2.4 allows it), and again only
  when its target died meanwhile (a dead target does not count);
- it writes a few short posts a day, one a turn, each at its moment: on the morning (a
  seer's or a medium's claim with every result, a mason's partner, or a greeting), an answer
  to whoever named it with a question or an accusation, a wolf's counter-claim or a madman's
  fake claim at a sixth of the day, whom it voted for and why at a third, the wolves' plan at
  night; one more in the epilogue. What it says is true to its view, except the lies its side
  would tell (a wolf's or a madman's claim, a wolf's deflection); a wolf, a madman or a fox
  never tells its role.
"""

import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from msgspec import Struct, field

from .. import talk
from ..talk import named_in

# The view's keys (all plain data; seats are the platform's, the scapegoat's is "npc"):
#   me, role, alive, partners (seats), names {seat: name}, moment (prologue | day | overtime |
#   night | epilogue), day, now / day_began / sunset / night_began / ended_at (ISO or None),
#   posted_at (the seat's last post, ISO or None), vote ({"targets": [...], "mine": seat|None}
#   or None), abilities ({ability: {"targets": [...], "mine": seat|None}}), results ([{"day",
#   "kind": divination|medium, "target", "wolf": bool}]), found_dead (this morning's, seats),
#   votes (the published vote lists, oldest first, {voter: target}), writable (boards it may
#   post on now), heard (today's posts on the boards it may read, oldest first: [{"seat",
#   "board", "text"}], its own included; decisions-classic 72).


class Plan(Struct):
    """A turn: the choices that change now, at most one post, and when to be asked again."""

    choices: dict[str, str] = field(default_factory=dict)
    posts: list[tuple[str, str]] = field(default_factory=list)
    again: datetime | None = None


WOLF_SIDE = ("werewolf", "madman")
# A post's moment after the morning: whom it voted for and why (a third of the day's talk);
# before it, its answer to what it heard (a sixth), if it has one.
VOTE_POST_AT = 1 / 3
REPLY_AT = 1 / 6
# It listens for questions at each twelfth of the day's talk and once more just before sunset
# (so that a question is answered before the talk ends), and writes at most this many public
# posts a day (answers included).
LISTENS = 12
LAST_LISTEN = 0.97
MAX_PUBLIC_POSTS = 8
ACCUSE_WORDS = ("怪しい", "あやしい", "人狼だ", "狼だ", "吊り", "吊る", "黒")
ASK_WORDS = (*talk.QUESTION_WORDS, *ACCUSE_WORDS)
# How often a lone wolf not named claims the seer against the claimer (潜伏 otherwise).
LONE_CLAIM_RATE = 0.75
# How often a wolf with one partner, not named, claims the seer against a lone claimer
# (対抗); three wolves (16 players) have the votes to stay hidden (潜伏) instead.
PAIR_CLAIM_RATE = 0.125
ATTACK_WORDS = ("襲", "噛", "かみ", "狙")
# How often a madman facing a seer claimer claims the seer too (騙り).
MADMAN_CLAIM_RATE = 1.0
# How often the wolves bite the claimed seer: otherwise they fear a hunter's guard on it.
BITE_CLAIMER_RATE = 0.25


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def known_wolves(view: Mapping[str, Any]) -> set[str]:
    return {r["target"] for r in view["results"] if r["wolf"]}


def known_humans(view: Mapping[str, Any]) -> set[str]:
    """Those the seat knows are not wolves: its human results, a mason's partner; for a wolf,
    its partners are not to be voted for either."""
    return {r["target"] for r in view["results"] if not r["wolf"]} | set(view["partners"])


# ----- reading the boards (decisions-classic 72): claims (CO) and results, by keywords -----

SEER_WORDS = ("占い師です", "占いCO", "占いを", "占った", "占い結果", "占いの結果", "占CO")
MEDIUM_WORDS = ("霊能者です", "霊能CO", "霊能結果", "霊能の結果", "霊CO", "処刑された")
MASON_WORDS = ("共有者です", "共有CO", "相方は")
CLAIM_WORDS = (("seer", SEER_WORDS), ("medium", MEDIUM_WORDS), ("mason", MASON_WORDS))
WOLF_WORDS = ("人狼", "黒", "●", "狼")
HUMAN_WORDS = ("人間", "白", "○", "村人")


class Claim(Struct):
    """One member's public claim, as read from its posts of the day."""

    role: str  # seer | medium | mason
    black: set[str] = field(default_factory=set)
    white: set[str] = field(default_factory=set)


def cores(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(seat, name as written)``, longest first: what ``named_in`` looks for."""
    return talk.cores(view["names"])


def claims(view: Mapping[str, Any]) -> dict[str, Claim]:
    """Who claims (CO) a seer or a medium on the public board today, with the results they
    tell: a sentence naming one member and a result word. Its own posts are not read."""
    said: dict[str, Claim] = {}
    names = cores(view)
    for post in view.get("heard", []):
        speaker = post["seat"]
        if post["board"] != "public" or speaker == view["me"]:
            continue
        text = post["text"].replace("co", "CO").replace("ＣＯ", "CO")
        role = next((r for r, words in CLAIM_WORDS if any(w in text for w in words)), None)
        if role is None:
            continue
        claim = said.setdefault(speaker, Claim(role))
        for sentence in text.replace("\n", "。").split("。"):
            seats = [s for s in named_in(names, sentence) if s != speaker]
            if len(seats) != 1:
                continue
            if role == "mason" or any(w in sentence for w in HUMAN_WORDS):
                claim.white.add(seats[0])  # a mason names its partner
            elif any(w in sentence for w in WOLF_WORDS):
                claim.black.add(seats[0])
    return said


def liars(view: Mapping[str, Any], said: Mapping[str, Claim]) -> set[str]:
    """Claimers the seat knows are lying: a seer claimer when it is the seer itself, one who
    calls the seat or someone it knows is human a wolf, or a wolf it knows human."""
    me, role = view["me"], view["role"]
    humans, wolves = known_humans(view) | {me}, known_wolves(view)
    if role in WOLF_SIDE:
        return set()
    return {
        claimer
        for claimer, claim in said.items()
        if (claim.role == "seer" and role == "seer")
        or (claim.role == "medium" and role == "medium")
        or claim.black & humans
        or claim.white & wolves
    }


def suspects(view: Mapping[str, Any], said: Mapping[str, Claim]) -> list[set[str]]:
    """Whom the village side would vote, most certain first: wolves it found, claimers it
    knows are lying, then whoever a seer claimer it has no reason to doubt calls a wolf
    (a modest player believes a black it cannot disprove)."""
    lying = liars(view, said)
    seers = {c for c, claim in said.items() if claim.role == "seer" and c not in lying}
    called = set().union(*(said[c].black for c in seers))
    return [known_wolves(view), lying, called - known_humans(view) - {view["me"]}]


def cleared(view: Mapping[str, Any], said: Mapping[str, Claim]) -> set[str]:
    """Whom the village side takes for human from the board, when nobody contests it: a lone
    seer claimer and those it calls human."""
    lying = liars(view, said)
    seers = [c for c, claim in said.items() if claim.role == "seer" and c not in lying]
    trusted = {seers[0], *said[seers[0]].white} if len(seers) == 1 else set()
    return trusted - known_wolves(view)


def pick_vote(
    view: Mapping[str, Any], rng: random.Random, said: Mapping[str, Claim] | None = None
) -> str:
    targets: Sequence[str] = view["vote"]["targets"]
    said = claims(view) if said is None else said
    if view["role"] not in WOLF_SIDE:
        for group in suspects(view, said):
            options = [t for t in targets if t in group]
            if options:
                return rng.choice(options)
    if view["role"] == "werewolf":  # push out its accusers, then a human a claimer calls a
        # wolf (it joins the village's mistake), then whoever voted a wolf; a lone wolf, with
        # nothing to hide in a partner's company, the seer claimer too
        lone = set() if view["partners"] else _claimers(view, said)
        for group in (_accusers(view, said), _mistaken(view, said), lone, _threats(view)):
            options = [t for t in targets if t in group]
            if options:
                return rng.choice(options)
    spared = set(view["partners"])
    if view["role"] not in WOLF_SIDE:
        spared |= known_humans(view) | cleared(view, said)
    rest = [t for t in targets if t not in spared] or list(targets)
    return rng.choice(rest)


def _claimers(view: Mapping[str, Any], said: Mapping[str, Claim], role: str = "seer") -> set[str]:
    """Members (not the wolves) who claim ``role``."""
    wolves = {view["me"], *view["partners"]}
    return {c for c, claim in said.items() if claim.role == role and c not in wolves}


def _accusers(view: Mapping[str, Any], said: Mapping[str, Claim]) -> set[str]:
    """For a wolf: claimers who call a wolf a wolf."""
    wolves = {view["me"], *view["partners"]}
    return {c for c, claim in said.items() if claim.black & wolves and c not in wolves}


def _mistaken(view: Mapping[str, Any], said: Mapping[str, Claim]) -> set[str]:
    """For a wolf: the non-wolves a claimer calls a wolf (a partner's or the madman's fake
    black: a human the village may hang)."""
    wolves = {view["me"], *view["partners"]}
    return {s for claim in said.values() for s in claim.black} - wolves


def _called(view: Mapping[str, Any]) -> set[str]:
    """For a wolf: whom its partners' latest post on the wolves' board proposes to attack."""
    names = cores(view)
    for post in reversed(view.get("heard", [])):
        partner = post["board"] == "wolves" and post["seat"] in view["partners"]
        if partner and any(w in post["text"] for w in ATTACK_WORDS):
            return set(named_in(names, post["text"])[:1])
    return set()


def _threats(view: Mapping[str, Any]) -> set[str]:
    """For a wolf: who voted for a wolf in the last published round (public)."""
    wolves = {view["me"], *view["partners"]}
    last = view["votes"][-1] if view["votes"] else {}
    return {voter for voter, target in last.items() if target in wolves}


def pick_ability(
    view: Mapping[str, Any],
    ability: str,
    rng: random.Random,
    said: Mapping[str, Claim] | None = None,
) -> str:
    targets: Sequence[str] = view["abilities"][ability]["targets"]
    said = claims(view) if said is None else said
    if ability == "attack":  # a partner's call on the wolves' board, the claimed seer (unless
        # a guard is feared), the medium, whoever voted a wolf
        seers = _claimers(view, said) if rng.random() < BITE_CLAIMER_RATE else set()
        groups = (_called(view), seers, _claimers(view, said, "medium"), _threats(view))
        for group in groups:
            options = [t for t in targets if t in group]
            if options:
                return rng.choice(options)
        return rng.choice(list(targets))
    if ability == "guard":  # the seer claimer it has no reason to doubt, then the medium
        lying = liars(view, said)
        for role in ("seer", "medium"):
            options = [t for t in targets if said.get(t, Claim("")).role == role and t not in lying]
            if options:
                return rng.choice(options)
        return rng.choice(list(targets))
    if ability == "divine":  # someone not divined yet, a player before the scapegoat
        divined = {r["target"] for r in view["results"] if r["kind"] == "divination"}
        fresh = [t for t in targets if t not in divined and t != "npc"]
        return rng.choice(fresh or list(targets))
    return rng.choice(list(targets))


def turn(view: Mapping[str, Any], rng: random.Random) -> Plan:
    """What the seat does now (empty when nothing is new)."""
    plan = Plan()
    if not view["alive"]:
        return plan
    said = claims(view)  # read once a turn
    vote = view["vote"]
    if vote is not None and vote["mine"] is None and vote["targets"]:
        vote_at = _moment(view, VOTE_POST_AT)
        now = _time(view["now"])
        assert now is not None
        if vote_at is None or now >= vote_at or view["moment"] != "day":
            plan.choices["vote"] = pick_vote(view, rng, said)
        else:  # it hears the morning's claims before it votes (decisions-classic 72)
            plan.again = vote_at
    for ability, row in view["abilities"].items():
        if row["targets"] and row["mine"] not in row["targets"]:
            plan.choices[ability] = pick_ability(view, ability, rng, said)
    _post(view, plan, rng, said)
    return plan


def _moment(view: Mapping[str, Any], share: float) -> datetime | None:
    """``share`` of the day's talk after the morning (None outside a day with a sunset)."""
    began, sunset = _time(view["day_began"]), _time(view["sunset"])
    if began is None or sunset is None:
        return None
    return began + (sunset - began) * share


def _post(
    view: Mapping[str, Any], plan: Plan, rng: random.Random, said: Mapping[str, Claim]
) -> None:
    """At most one post a turn (the post service keeps a member's pace), each at its moment."""
    now = _time(view["now"])
    assert now is not None
    posted = _time(view["posted_at"])
    writable = view["writable"]
    moment = view["moment"]

    def due(at: datetime | None) -> bool:
        return at is not None and at <= now and (posted is None or posted < at)

    if moment == "epilogue":
        if "public" in writable and due(_time(view["ended_at"])):
            plan.posts.append(("public", _fresh(view, rng, "public", GOODBYES)))
        return
    if moment == "night":
        if "wolves" in writable and due(_time(view["night_began"])):
            plan.posts.append(("wolves", _whisper(view, plan, rng)))
        return
    if moment != "day" or "public" not in writable:
        return
    began = _time(view["day_began"])
    reply_at, vote_at = _moment(view, REPLY_AT), _moment(view, VOTE_POST_AT)
    if began is None or reply_at is None or vote_at is None:
        return
    if due(began):
        plan.posts.append(("public", _fresh(view, rng, "public", _morning(view))))
    elif (asked := _asked(view, posted)) is not None:  # a question first, as a person would
        plan.posts.append(("public", _fresh(view, rng, "public", _reply(view, asked))))
    elif due(vote_at):
        if view["vote"] is not None:
            mine = plan.choices.get("vote") or view["vote"]["mine"]
            if mine is not None:
                lines = _vote_line(view, mine, said)
                plan.posts.append(("public", _fresh(view, rng, "public", lines)))
    elif due(reply_at) and (answer := _answer(view, rng, said)) is not None:
        plan.posts.append(("public", answer))  # decided once, before its vote's moment
    # It listens through the day for a question or an accusation naming it.
    shares = [*(k / LISTENS for k in range(1, LISTENS)), LAST_LISTEN]
    listen = [_moment(view, share) for share in shares]
    # (Before its vote it still listens: the vote's moment does not put off an answer.)
    later = [at for at in (reply_at, vote_at, *listen, plan.again) if at is not None and at > now]
    if later:
        plan.again = min(later)


def _madman_claim(
    view: Mapping[str, Any], rng: random.Random, said: Mapping[str, Claim]
) -> str | None:
    """A madman facing a seer claimer claims the seer too, now and then, and calls someone
    it picks a wolf (it knows no wolf: a lie that helps them, as its side would tell it)."""
    rivals = [c for c, claim in said.items() if claim.role == "seer"]
    if not rivals or view["me"] in said or rng.random() >= MADMAN_CLAIM_RATE:
        return None
    others = [s for s in view["vote"]["targets"]] if view["vote"] else []
    picks = [s for s in others if s not in said] or others
    if not picks:
        return None
    return f"占い師です。{_name(view, rng.choice(picks))}を占った結果は人狼でした。"


def _asked(view: Mapping[str, Any], posted: datetime | None) -> dict[str, str] | None:
    """The latest public post of another since its own last post that asks it something: it
    names the seat by any name a player would use or anchors one of its posts (``>>n``), with
    a question or an accusation (None once it has said its day's fill)."""
    me = view["me"]
    mine = [p for p in view["heard"] if p["seat"] == me and p["board"] == "public"]
    if len(mine) >= MAX_PUBLIC_POSTS:
        return None
    names = cores(view)
    numbers = [n for p in mine if (n := p.get("n")) is not None]
    for post in reversed(view["heard"]):
        at = _time(post.get("at"))
        if posted is not None and (at is None or at <= posted):
            return None
        if post["board"] != "public" or post["seat"] == me:
            continue
        # Sentence by sentence: 「Xさんに投票します。…教えてください」 asks X nothing.
        sentences = post["text"].replace("\n", "。").replace("！", "。").split("。")
        if any(talk.addressed(names, me, numbers, s, view["day"], ASK_WORDS) for s in sentences):
            return dict(post)
    return None


def _reply(view: Mapping[str, Any], post: Mapping[str, str]) -> list[str]:
    """A short answer to whoever named it, true to its view, in each of its phrasings: a seer
    or a medium its claim, a mason its partner, a villager its role; a wolf, a madman, a fox or
    a hunter keeps its role to itself (a wolf deflects, as its side would)."""
    role = view["role"]
    if role in ("seer", "medium") and view["results"]:
        said = _morning(view)
    elif role == "mason" and view["partners"]:
        partner = _name(view, view["partners"][0])
        said = [line.format(partner=partner) for line in MASON_LINES]
    elif role == "werewolf":
        said = list(DEFLECTIONS)
    elif any(w in post["text"] for w in ACCUSE_WORDS):
        said = list(DENIALS)
    elif role == "villager":
        said = list(VILLAGER_LINES)
    else:
        said = list(WITHHELD_LINES)
    who = _name(view, post["seat"])
    return [f"{address.format(who=who)}{line}" for address in ADDRESSES for line in said]


def _answer(view: Mapping[str, Any], rng: random.Random, said: Mapping[str, Claim]) -> str | None:
    """What it answers on the day's board: a wolf facing a seer claimer claims the seer
    itself (対抗) and calls that claimer a wolf — when the claimer named it a wolf, and a lone
    wolf or one of a pair now and then besides (a lie, as its side would tell it), unless a
    partner claimed (decisions-classic 72, 73)."""
    if view["role"] == "madman":
        return _madman_claim(view, rng, said)
    if view["role"] != "werewolf" or view["me"] in said:
        return None
    if any(said.get(p) is not None and said[p].role == "seer" for p in view["partners"]):
        return None
    rivals = sorted(_claimers(view, said))
    accusers = [c for c in rivals if view["me"] in said[c].black]
    target = accusers[0] if accusers else rivals[0] if rivals else None
    if target is None:
        return None
    if not accusers:  # not named: a lone wolf claims now and then, a pair's wolf against a
        # lone claimer now and then; three stay hidden (潜伏)
        partners = len(view["partners"])
        if partners > 1 or (partners and len(rivals) > 1):
            return None
        if rng.random() >= (PAIR_CLAIM_RATE if partners else LONE_CLAIM_RATE):
            return None
    return f"占い師です。{_name(view, target)}を占った結果は人狼でした。対抗します。"


def _name(view: Mapping[str, Any], seat: str) -> str:
    return f"{view['names'].get(seat, seat)}さん"


def _morning(view: Mapping[str, Any]) -> list[str]:
    """The morning's post, in each of its phrasings: a claim with its latest true result, or a
    greeting with the news."""
    role, day = view["role"], view["day"]
    latest = {r["kind"]: r for r in view["results"] if r["day"] == day}
    word = {True: "人狼", False: "人間"}
    if role in ("seer", "medium") and role_kind(role) in latest:
        # Every result so far: the boards are read a day at a time (decisions-classic 72).
        lines = "".join(
            f"{_name(view, r['target'])}を占った結果は{word[r['wolf']]}でした。"
            if r["kind"] == "divination"
            else f"処刑された{_name(view, r['target'])}は{word[r['wolf']]}でした。"
            for r in view["results"]
        )
        return [claim + lines for claim in CLAIM_LINES[role]]
    if role == "mason" and day == 2 and view["partners"]:
        partner = _name(view, view["partners"][0])
        return [line.format(partner=partner) for line in MASON_LINES]
    dead = view["found_dead"]
    if day == 1:
        return list(FIRST_GREETINGS)
    if dead:
        names = "、".join(_name(view, s) for s in dead)
        return [line.format(names=names) for line in FOUND_DEAD_LINES]
    return list(QUIET_MORNINGS)


def role_kind(role: str) -> str:
    return "divination" if role == "seer" else "medium"


def _vote_line(view: Mapping[str, Any], seat: str, said: Mapping[str, Claim]) -> list[str]:
    """Whom it votes for and why, true to its view (a wolf gives no reason of its side), in
    each of its phrasings."""
    reasons: Sequence[str] = NO_REASON
    if view["role"] not in WOLF_SIDE:
        callers = sorted(c for c, claim in said.items() if seat in claim.black)
        if seat in known_wolves(view):
            reasons = FOUND_REASONS
        elif seat in liars(view, said):
            reasons = LIAR_REASONS
        elif callers:
            who = _name(view, callers[0])
            reasons = [line.format(who=who) for line in CALLED_REASONS]
    name = _name(view, seat)
    return [vote.format(name=name) + why for vote in VOTE_LINES for why in reasons]


def _whisper(view: Mapping[str, Any], plan: Plan, rng: random.Random) -> str:
    attack = view["abilities"].get("attack")
    target = plan.choices.get("attack") or (attack or {}).get("mine")
    if target is None:
        return _fresh(view, rng, "wolves", WAITING_WHISPERS)
    lines = [line.format(name=_name(view, target)) for line in ATTACK_WHISPERS]
    return _fresh(view, rng, "wolves", lines)


def _fresh(view: Mapping[str, Any], rng: random.Random, board: str, lines: Sequence[str]) -> str:
    """One of ``lines`` that nobody said on ``board`` today (decision 180)."""
    said = [post["text"] for post in view["heard"] if post["board"] == board]
    return talk.fresh(rng, lines, said)


# The phrasings of each line (decision 180): a computer draws one nobody said today. Claims
# keep the words the boards are read by (占い師です, 霊能者です, a result naming one member).
CLAIM_LINES = {
    "seer": ("占い師です。", "占い師COします。", "私が占い師です。"),
    "medium": ("霊能者です。", "霊能COします。", "私が霊能者です。"),
}
MASON_LINES = (
    "共有者です。相方は{partner}です。",
    "共有COします。相方は{partner}です。",
    "私は共有者です。相方は{partner}です。",
)
FIRST_GREETINGS = (
    "よろしくお願いします。",
    "皆さん、よろしくお願いします。",
    "はじめまして、よろしくお願いします。",
    "よろしくお願いします。がんばりましょう。",
    "どうぞよろしく。楽しみましょう。",
)
FOUND_DEAD_LINES = (
    "おはようございます。{names}が無残な姿で見つかりましたね。",
    "おはようございます。{names}が犠牲になってしまいました。",
    "{names}がやられてしまいましたか……。今日もよろしくお願いします。",
    "朝になりましたね。{names}のことは残念です。",
    "おはようございます。{names}の無念を晴らしましょう。",
    "{names}が見つかったそうですね。今日こそ人狼を探しましょう。",
)
QUIET_MORNINGS = (
    "おはようございます。今朝は誰も死んでいませんね。",
    "おはようございます。今朝は犠牲者がいないようです。",
    "誰も死ななかった朝ですね。よかったです。",
)
ADDRESSES = ("{who}、", "{who}、お答えします。", "{who}、返事をします。")
DEFLECTIONS = (
    "疑うのは自由ですが、私を吊っても村は楽になりませんよ。",
    "私を疑うより、もっと見るべき人がいると思います。",
    "私ではありません。その疑いは外れです。",
)
DENIALS = ("私は人狼ではありません。", "人狼ではありませんよ。", "私は違います。信じてください。")
VILLAGER_LINES = (
    "村人です。まだ決め手はありません。",
    "ただの村人です。まだ何も分かっていません。",
    "村人です。皆さんの話を聞いて考えています。",
)
WITHHELD_LINES = (
    "役職はまだ伏せておきます。",
    "いまは役職を言わずにおきます。",
    "役職はまだ言えません。",
)
VOTE_LINES = ("{name}に投票します。", "投票は{name}にしました。", "{name}に票を入れます。")
FOUND_REASONS = ("占いで人狼と出たからです。", "私の占いで人狼でした。")
LIAR_REASONS = (
    "言っていることが本当ではないと分かるからです。",
    "その人の言うことが、私の知っていることと食い違うからです。",
)
CALLED_REASONS = ("{who}の占いで人狼と出ているからです。", "{who}の言う結果を信じます。")
NO_REASON = (
    "まだ決め手がないので、直感です。",
    "はっきりした根拠はありません。",
    "迷いましたが、ここにします。",
    "決め手はないので、違うと思ったら教えてください。",
)
GOODBYES = (
    "おつかれさまでした。楽しかったです。",
    "おつかれさまでした！またご一緒しましょう。",
    "皆さんおつかれさまでした。いい村でした。",
    "おつかれさまでした。次もよろしくお願いします。",
)
ATTACK_WHISPERS = ("今夜は{name}を襲撃しよう。", "{name}を襲おう。", "狙うなら{name}だと思う。")
WAITING_WHISPERS = (
    "今夜もよろしく。明日も村人のふりをしよう。",
    "明日も村人らしくいこう。",
    "今夜もよろしく。ぼろを出さないように。",
)
