"""Reply reading measured on mail nobody on this project wrote (issue 36): public corpora of
real replies and of bounces and auto-replies, brought here by hand (they are not committed).

``python -m benchmarks.reply_corpora DIR`` where DIR holds the corpora unpacked side by side:
``mailgun+talon``, ``zapier+email-reply-parser``, ``crisp-im+email-reply-parser``,
``discourse+email_reply_trimmer`` (replies) and ``sisimai+set-of-emails`` (machine-made
mail). Not part of ``make bench``: the corpora are not in the repository.

For each reply, a command of the player's own goes on its first line and another command of
the same choice is planted inside its quoted part (with the quote's own ``>`` where it has
them). Where the quoted part starts: discourse's trimmed copy says it; elsewhere the earliest
of a ``>`` line and every candidate reader's cut. Counted per reader: quoted commands played,
own commands lost (not read, or refused as written twice), crashes. Every sisimai message is
machine-made: counted as ignored when ``message.read`` says so."""

import json
import sys
import time
from collections.abc import Callable
from email import message_from_bytes, policy
from pathlib import Path

from chalicelib.inbound import commands, message

OWN = "投票 アリス"
PLANTED = "投票 ボブ"
VOCABULARY = commands.Vocabulary({"vote": ("投票",)}, {"alice": ("アリス",), "bob": ("ボブ",)})
Reader = Callable[[str], str]


def _quotequail(text: str) -> str:
    import quotequail

    return "\n".join(part for own, part in quotequail.quote(text) if own)


def _mail_parser_reply(text: str) -> str:
    from mailparser_reply import EmailReplyParser

    languages = ["en", "de", "fr", "es", "it", "nl", "sv", "da", "pl", "cs", "ja", "ko", "zh"]
    return str(EmailReplyParser(languages=languages).parse_reply(text=text) or "")


def _importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


# quotequail is compared, never shipped: ``pip install quotequail`` to measure it too.
READERS: dict[str, Reader] = {
    "ours": message.new_text,
    **({"quotequail": _quotequail} if _importable("quotequail") else {}),
    "mail-parser-reply": _mail_parser_reply,
}


def replies(root: Path) -> list[tuple[str, str, str | None]]:
    """(name, body text, the own text when the corpus says it)."""
    found: list[tuple[str, str, str | None]] = []
    talon = root / "mailgun+talon/tests/fixtures"
    for path in sorted((talon / "standard_replies").glob("*.eml")):
        body = message.body_text(message_from_bytes(path.read_bytes(), policy=policy.compat32))
        found.append((f"talon/{path.name}", body, None))
    for path in sorted((talon / "html_replies").glob("*.html")):
        found.append((f"talon/{path.name}", message.html_text(path.read_text("utf-8")), None))
    for folder in (
        "zapier+email-reply-parser/test/emails",
        "crisp-im+email-reply-parser/test/fixtures",
    ):
        for path in sorted((root / folder).glob("*.txt")):
            found.append((f"{folder.split('+')[0]}/{path.name}", path.read_text("utf-8"), None))
    discourse = root / "discourse+email_reply_trimmer/test"
    for path in sorted((discourse / "emails").glob("*.txt")):
        trimmed = discourse / "trimmed" / path.name
        own = trimmed.read_text("utf-8") if trimmed.exists() else None
        found.append((f"discourse/{path.name}", path.read_text("utf-8"), own))
    return found


def quote_start(lines: list[str], own: str | None) -> int | None:
    """The first line of the quoted part, or None when nothing says there is one."""
    if own is not None:
        kept = [line.strip() for line in own.splitlines() if line.strip()]
        seen = 0
        for n, line in enumerate(lines):
            if seen == len(kept):
                rest = [x for x in lines[n:] if x.strip()]
                return n if rest else None
            if line.strip() == kept[seen]:
                seen += 1
        return None
    starts = [n for n, line in enumerate(lines) if _marked(line)][:1]
    text = "\n".join(lines)
    for reader in READERS.values():
        try:
            cut = reader(text)
        except Exception:
            continue
        last = [x.strip() for x in cut.splitlines() if x.strip()][-1:]
        if not last:
            continue
        for n, line in enumerate(lines):
            if line.strip() == last[0]:
                rest = [x for x in lines[n + 1 :] if x.strip()]
                if rest:
                    starts.append(n + 1)
                break
    return min(starts) if starts else None


def planted(lines: list[str], start: int, below: bool = False) -> str:
    """The reply with ``PLANTED`` as the quoted part's last line, and ``OWN`` on top or,
    with ``below``, on the line under a ``>`` quote (bottom posting)."""
    end = len(lines)
    marked = next((n for n in range(start, min(start + 9, end)) if _marked(lines[n])), None)
    if marked is not None:  # a ">" quote (under its head): the quote is that block
        end = marked
        while end < len(lines) and (_marked(lines[end]) or not lines[end].strip()):
            end += 1
        while not lines[end - 1].strip():  # its last ">" line, not the blanks below it
            end -= 1
    prefix = "> " if _marked(lines[end - 1]) else ""
    if below:
        return "\n".join([*lines[:end], prefix + PLANTED, "", OWN, "", *lines[end:]])
    return "\n".join([OWN, "", *lines[:end], prefix + PLANTED, *lines[end:]])


def _marked(line: str) -> bool:
    return message.QUOTED.match(line.lstrip()) is not None


def measure_replies(root: Path) -> dict[str, dict[str, int]]:
    """Per reader: replies read, quoted commands played, own commands lost (on top of the
    reply), bottom-posted replies (``>`` quotes) and their own commands lost, crashes."""
    names = ("replies", "quoted_played", "own_lost", "bottom_posted", "own_below_lost", "crashes")
    figures = {reader: dict.fromkeys(names, 0) for reader in READERS}
    for _name, body, own in replies(root):
        lines = body.replace("\r\n", "\n").split("\n")
        start = quote_start(lines, own)
        texts = [planted(lines, start) if start is not None else "\n".join([OWN, "", *lines])]
        if start is not None and any(_marked(line) for line in lines[start : start + 9]):
            texts.append(planted(lines, start, below=True))
        for reader_name, reader in READERS.items():
            count = figures[reader_name]
            for n, text in enumerate(texts):
                count["bottom_posted" if n else "replies"] += 1
                try:
                    read = commands.read(reader(text), VOCABULARY)
                except Exception:
                    count["crashes"] += 1
                    continue
                # Read at all: understood, or refused as written twice (the own one too).
                if any(line.text == PLANTED for line in read):
                    count["quoted_played"] += 1
                if not any(line.key == "vote" and line.target == "alice" for line in read):
                    count["own_below_lost" if n else "own_lost"] += 1
    return figures


def measure_people(root: Path) -> dict[str, int]:
    """Replies people wrote (talon's, whole messages with their headers): none is machine-made."""
    paths = sorted((root / "mailgun+talon/tests/fixtures/standard_replies").glob("*.eml"))
    wrong = [p.name for p in paths if message.read(p.read_bytes()).machine is not None]
    return {"messages": len(paths), "taken_for_machines": len(wrong)}


def measure_machine(root: Path) -> dict[str, int]:
    base = root / "sisimai+set-of-emails/maildir"
    paths = [p for d in ("bsd", "err", "dos", "mac") for p in sorted((base / d).glob("*.eml"))]
    ignored = crashes = 0
    missed: list[str] = []
    for path in paths:
        try:
            incoming = message.read(path.read_bytes())
        except Exception:
            crashes += 1
            continue
        if incoming.machine is not None:
            ignored += 1
        else:
            missed.append(f"{path.parent.name}/{path.name}")
    print("machine-made mail not recognised:", *missed, sep="\n  ", file=sys.stderr)
    return {"messages": len(paths), "ignored": ignored, "crashes": crashes}


def main(root: Path) -> None:
    started = time.perf_counter()
    figures = {
        "replies": measure_replies(root),
        "machine": measure_machine(root),
        "people": measure_people(root),
    }
    figures["seconds"] = round(time.perf_counter() - started, 1)  # type: ignore[assignment]
    print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
