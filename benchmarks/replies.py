"""Reply mail (issue 27): the time to read a large reply (a 100 KB message, mostly the quoted
original) down to its commands. The requests per accepted reply are in ``requests``."""

import statistics
import time
from email.message import EmailMessage

from chalicelib.inbound import commands, message

RUNS = 30
QUOTED_LINE = "> 3日目の朝になりました。祈り 庶民B、占いの結果は「人」でした。〆切は19時です。\n"


def large_reply(size: int = 100_000) -> bytes:
    """A Gmail-like reply: two commands, then the quoted original up to ``size`` octets, sent
    as an HTML part too (so both parts are ~half of it)."""
    # The text part and the HTML part each carry the quote; their transfer encoding adds ~1/3.
    quoted = QUOTED_LINE * (size * 4 // 11 // len(QUOTED_LINE.encode()))
    text = "祈り 霊能者A\n占い なし\n\n2026年12月1日(火) 12:00 メビウス人狼 <r@x>:\n" + quoted
    mail = EmailMessage()
    mail["From"] = "someone@gmail.com"
    mail["To"] = "r@reply.mobius.example"
    mail["Message-ID"] = "<large@gmail.com>"
    mail.set_content(text)
    mail.add_alternative("<div>" + text.replace("\n", "<br>") + "</div>", subtype="html")
    return mail.as_bytes()


def figures() -> dict[str, float]:
    raw = large_reply()
    vocabulary = commands.Vocabulary(
        {"pray": ("祈り",), "divine": ("占い",)}, {"medium_a": ("霊能者A",)}
    )
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        lines = commands.read(message.read(raw).text, vocabulary)
        times.append(time.perf_counter() - started)
    assert [line.key for line in lines] == ["pray", "divine"], lines
    return {
        "message_kb": round(len(raw) / 1000, 1),
        "parse_ms_median": round(statistics.median(times) * 1000, 2),
        "parse_ms_max": round(max(times) * 1000, 2),
    }
