"""What a village's mail and the replies to it call things (issue 27): the words of each
choice and the names of each target a reply may use, how mail writes a choice back, the
member's reply address and a command valid for them today. Pure but for the signing key."""

from ..personas import persona
from ..rulesets import DEFAULT
from ..rulesets.base import Viewer
from ..storage.repository import VillageRecord
from . import address, commands


def vocabulary(record: VillageRecord) -> commands.Vocabulary:
    """The words a reply to this village may use: each choice's, each target's names."""
    rules = record.rules
    names: dict[str, tuple[str, ...]] = dict(rules.reply_names(record))
    for slot, seat in record.seats().items():
        chosen = persona(record.village.character_set, seat.persona) if seat.persona else None
        own = (chosen.name,) if chosen is not None else ()
        names[slot] = (seat.name, *own, *names.get(slot, ()))
    return commands.Vocabulary(rules.reply_words, names)


def target_names(record: VillageRecord) -> dict[str, str]:
    """How mail writes each target: its name, else the last name the rule set gives it."""
    extra = {t: names[-1] for t, names in record.rules.reply_names(record).items() if names}
    return {**extra, **record.names()}


def reply_address(record: VillageRecord, slot: str) -> str:
    """The member's own reply address for the village's mail of today."""
    to = address.ReplyTo(record.village.rules or DEFAULT, record.village_id, slot, record.day)
    return address.address(to)


def choices_now(record: VillageRecord, slot: str) -> list[dict[str, str]]:
    """The member's full current choices as command lines: every choice saved today and every
    one a mail offers them, undecided as なし, in the action form's order."""
    rules = record.rules
    account_id = record.seats()[slot].account_id
    viewer = Viewer(account_id=account_id, slot=slot)
    saved = rules.visible_choices(record, viewer, record.day).get(slot, {}) if account_id else {}
    keys = set(saved) | {choice.key for choice in rules.quick_choices(record, slot)}
    names = target_names(record)
    return [
        {
            "label": rules.choice_labels.get(key, key),
            "line": commands.line_for(rules.reply_words[key][0], names.get(saved.get(key) or "")),
        }
        for key in rules.choice_labels
        if key in keys and key in rules.reply_words
    ]


def example(record: VillageRecord, slot: str) -> str | None:
    """One command valid for the member today (the mail's how-to-reply line), or None."""
    rules = record.rules
    names = target_names(record)
    for choice in rules.quick_choices(record, slot):
        if choice.key in rules.reply_words and choice.targets:
            target = next((t for t in choice.targets if t != choice.was), choice.targets[0])
            return commands.line_for(rules.reply_words[choice.key][0], names.get(target, target))
    return None
