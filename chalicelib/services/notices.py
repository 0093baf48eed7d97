"""What each member is told by mail, built only from what visibility allows (RULES §5, §8).

The outbox keeps only *which* notice is owed to whom; the text is made here at
send time from the village as it is recorded, so a retried send says the same.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..links import MemberLink, member_url, unsubscribe_url
from ..rules import JOBS, EndedBy, Job
from ..runtime import base_url
from ..storage.models import AccountItem
from ..storage.repository import VillageRecord
from ..timeline import TIMINGS, Pace, Phase, State, deadline_of
from ..visibility import Viewer, private, public_deaths, sides_shown
from ..web.render import render
from . import posts

# The ability a quick link may set, by job (prayer links go to every living member).
ABILITY = {Job.SEER: "divine", Job.GUARD: "guard", Job.ASSASSIN: "assassinate"}
KINDS = ("start", "morning", "ending", "abandoned", "reminder")
SUBJECTS = {
    "start": "{day}日目が始まりました",
    "morning": "{day}日目の朝になりました",
    "ending": "決着がつきました（{day}日目）",
    "abandoned": "廃村になりました",
    "reminder": "〆切が近づいています（{day}日目）",
}


@dataclass(frozen=True)
class Notice:
    to: str
    subject: str
    text: str
    html: str
    unsubscribe: str


def tidy(text: str) -> str:
    """A plain-text mail as it should read: no trailing spaces, never two blank lines in a
    row, none at the start or the end."""
    lines: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if line or (lines and lines[-1]):
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def compose(
    record: VillageRecord,
    account: AccountItem,
    kind: str,
    day: int,
    now: datetime,
) -> Notice | None:
    """One member's mail, or None when that account no longer plays a slot here."""
    slot = record.slot_of(account.account_id)
    if slot is None:
        return None
    meta = record.meta
    game = record.game
    viewer = Viewer(account_id=account.account_id, slot=slot)
    state = State(meta.state)
    names = {s: posts.display_name(meta.character_set, m) for s, m in record.members.items()}
    mine = private(game, viewer)
    expires = meta.next_update or now
    alive = slot not in game.deaths
    if meta.next_update is not None:
        link = member_url(MemberLink(account.account_id, meta.village_id, game.day), expires)
    else:  # over (abandoned): no update to sign in until, the page stays open to read
        link = f"{base_url()}/villages/{meta.village_id}"
    # One-tap choices (the HTML part), grouped by action: one line of short target links each.
    quick: list[dict[str, Any]] = []
    if state is State.RUNNING and alive and kind in ("start", "morning", "reminder"):
        keys = ["pray"] + ([ABILITY[JOBS[slot]]] if JOBS[slot] in ABILITY else [])
        saved = record.choices_of(game.day).get(slot)
        for key in keys:
            was = getattr(saved, key) if saved else None
            links = [
                {
                    "target": target,
                    "url": member_url(
                        MemberLink(
                            account.account_id,
                            meta.village_id,
                            game.day,
                            key,
                            target,
                            was,
                            int(now.timestamp()),
                        ),
                        expires,
                    ),
                }
                for target in game.legal_targets(slot, key)
            ]
            if links:
                quick.append({"key": key, "links": links})
    deadline = None
    if state is State.RUNNING and meta.day_started_at is not None:
        deadline = deadline_of(Pace(meta.pace), meta.day_started_at)
    # The notice of ``day`` tells that morning's news, even when sent after later ones.
    # A declaration or resignation ends the game without a new morning: its mail does not
    # repeat the morning the members were already told.
    morning = next((m for m in game.mornings if m.day == day), None)
    if kind == "ending" and game.ending is not None and game.ending.by != EndedBy.ELIMINATION:
        morning = None
    context = {
        "kind": kind,
        "village": meta,
        "day": day,
        "name": names[slot],
        "names": names,
        "private": mine,
        "alive": alive,
        "deaths": public_deaths(game).get(morning.day, {}) if morning else {},
        "morning_day": morning.day if morning else None,
        "sides": sides_shown(game, Phase.ENDING, viewer) if kind == "ending" else {},
        "ending": game.ending,
        "deadline": deadline,
        "loss_time": TIMINGS[Pace(meta.pace)].loss_time,
        "next_update": meta.next_update,
        "link": link,
        "signed_link": meta.next_update is not None,
        "quick": quick,
    }
    unsubscribe = unsubscribe_url(account.account_id, now)
    context["unsubscribe"] = unsubscribe
    subject = f"【メビウス人狼】{meta.village_id}番 {meta.name}：" + SUBJECTS[kind].format(day=day)
    return Notice(
        to=account.email,
        subject=subject,
        text=tidy(render("mail/notice.txt", **context)),
        html=render("mail/notice.html", **context),
        unsubscribe=unsubscribe,
    )
