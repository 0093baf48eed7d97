"""A received message as the reply handler reads it: who sent it, to which addresses, what
SES's checks said of it, whether a machine wrote it, and only the new text the person wrote.

Real mail: text/plain preferred, HTML-only mail turned into text; UTF-8, ISO-2022-JP and
Shift_JIS (Japanese carriers); quoted-printable and base64; NFKC (full-width letters, digits,
colons and spaces). The quoted original and signatures are cut off (``new_text``)."""

import hashlib
import re
import unicodedata
from datetime import datetime
from email import message_from_bytes, policy
from email.header import decode_header
from email.message import EmailMessage, Message
from email.utils import format_datetime, getaddresses, make_msgid, parseaddr
from functools import cache
from html.parser import HTMLParser
from typing import ClassVar

from msgspec import Struct, field

from ..labels import SITE_NAME

# Japanese carriers label Shift_JIS and ISO-2022-JP mail with the base names, but write the
# vendors' extensions (①, ㈱, IBM kanji): read each as its superset.
SUPERSETS = {
    "shift_jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "iso-2022-jp": "iso2022_jp_ext",
}
MAX_TEXT = 20_000  # characters of new text read: commands are a few short lines
MAX_LINES = 40  # lines of new text kept: as many as the commands' readers read


class Verdicts(Struct, frozen=True):
    """What SES's receiving said (its ``Authentication-Results``, the topmost one)."""

    spf: str = "none"
    spf_domain: str = ""
    dkim: str = "none"
    dkim_domains: tuple[str, ...] = ()
    dmarc: str = "none"

    def pass_for(self, sender: str) -> bool:
        """SPF and DKIM both pass, each for the From address's domain (or a domain it is
        under, or one under it: relaxed alignment), and DMARC, where published, passes too:
        a From another domain's mail server may claim is never trusted (decision 119)."""
        host = sender.rpartition("@")[2].lower()
        return (
            self.spf == "pass"
            and _aligned(self.spf_domain, host)
            and self.dkim == "pass"
            and any(_aligned(d, host) for d in self.dkim_domains)
            and self.dmarc in ("pass", "none")
        )


def _aligned(one: str, other: str) -> bool:
    one, other = one.lower().strip("."), other.lower().strip(".")
    return bool(one) and (one == other or one.endswith("." + other) or other.endswith("." + one))


class Incoming(Struct, frozen=True):
    message_id: str  # the Message-ID, or a hash of the message when it has none
    sender: str  # the From address, lowercased
    recipients: tuple[str, ...]  # To, Cc and Delivered-To addresses
    verdicts: Verdicts
    machine: str | None  # why a machine wrote it (an auto-reply, a bounce), or None
    text: str  # the new text, quotes and signature cut off, NFKC
    headers: dict[str, str] = field(default_factory=dict)


def read(raw: bytes) -> Incoming:
    message = message_from_bytes(raw, policy=policy.compat32)
    # Folded as accounts fold a verified address (NFKC, case folded).
    sender = unicodedata.normalize(
        "NFKC", parseaddr(_header(message, "From"))[1].strip()
    ).casefold()
    recipients = tuple(
        a.strip().lower()
        for _, a in getaddresses(
            [_header(message, name) for name in ("To", "Cc", "Delivered-To") if message[name]]
        )
        if a
    )
    message_id = _header(message, "Message-ID").strip() or (
        "sha256:" + hashlib.sha256(raw).hexdigest()
    )
    return Incoming(
        message_id=message_id[:500],
        sender=sender,
        recipients=recipients,
        verdicts=verdicts(message),
        machine=machine_made(message, sender),
        text=new_text(body_text(message)),
        headers={"subject": _header(message, "Subject")},
    )


def _header(message: Message, name: str) -> str:
    """A header's text: RFC 2047 words decoded (Japanese charsets read as their supersets),
    and raw 8-bit octets, which some clients and carriers send unencoded, read as UTF-8, else
    Shift_JIS, else EUC-JP; a raw ISO-2022-JP one (7-bit escapes) as such."""
    # The raw value: ``get`` hands 8-bit octets back as replacement characters.
    text = next((str(v) for k, v in message.raw_items() if k.lower() == name.lower()), None)
    if text is None:
        return ""
    if any("\udc80" <= char <= "\udcff" for char in text) or "\x1b$" in text:
        return _text(
            text.encode("ascii", "surrogateescape"), "iso-2022-jp" if "\x1b$" in text else ""
        )
    try:
        return "".join(
            word if isinstance(word, str) else _text(word, charset or "")
            for word, charset in decode_header(text)
        )
    except (LookupError, UnicodeError, ValueError):
        return text


def _text(octets: bytes, charset: str) -> str:
    """``octets`` in ``charset`` (its superset), else UTF-8, else Shift_JIS, else EUC-JP."""
    charset = charset.lower()
    for name in (SUPERSETS.get(charset, charset), "utf-8", "cp932", "euc_jp"):
        try:
            return octets.decode(name) if name else octets.decode("ascii")
        except (LookupError, UnicodeDecodeError):
            continue
    return octets.decode("utf-8", errors="replace")


_MAILFROM = re.compile(r"(?:envelope-from|smtp\.mailfrom)=(?:[^@\s;]*@)?([\w.-]+)")
_METHOD = re.compile(r"\b(?=(?:spf|dkim|dmarc)=)", re.IGNORECASE)


def verdicts(message: Message) -> Verdicts:
    """The topmost ``Authentication-Results``, when it is ``amazonses.com``'s: SES puts its
    own above every header the message came with, so one a sender forged lies below it
    (decision 119)."""
    found = message.get_all("Authentication-Results") or []
    text = " ".join(str(found[0]).split()) if found else ""
    if not text.lower().startswith("amazonses.com"):
        return Verdicts()  # none, or the topmost is not SES's: nothing here is trusted
    results: dict[str, str] = {}
    spf_domain = ""
    dkim_domains: list[str] = []
    for part in _METHOD.split(text)[1:]:
        method, _, rest = part.partition("=")
        method, result = method.lower(), rest.split(";")[0].split()[0].lower() if rest else ""
        if method == "dkim" and result == "pass":
            dkim_domains += re.findall(r"header\.[id]=@?([\w.-]+)", rest)
        mailfrom = _MAILFROM.search(rest) if method == "spf" else None
        if mailfrom is not None and method not in results:
            spf_domain = mailfrom.group(1)
        if results.get(method) != "pass":  # several DKIM signatures: one that passes counts
            results[method] = result
    return Verdicts(
        spf=results.get("spf", "none"),
        spf_domain=spf_domain,
        dkim=results.get("dkim", "none"),
        dkim_domains=tuple(dkim_domains),
        dmarc=results.get("dmarc", "none"),
    )


# A subject that says a program wrote the mail: a vacation notice, a bounce, a carrier's error
# notice, a challenge/response "confirm you are human" mail. Looked for anywhere in the
# subject but in the game's part of ours when it quotes it (``【人狼ひろば・…】12番 <the
# village's name>：``): a village's name is the GM's, and may say anything.
AUTO_SUBJECT = re.compile(
    r"auto(matic)?[ -]?(reply|response|antwort)|^auto:|out of (the )?office|"
    r"自動応答|自動返信|自動送信|自動通知|不在|休暇|abwesenheit|absence|réponse automatique|"
    r"respuesta automática|automatisch antwoord|autosvar|vacation|on leave|"
    r"undeliver|undelivered|delivery (status )?notification|delivery fail|failure notice|"
    r"returned mail|mail delivery|could not be delivered|non[- ]?delivery|"
    r"配信不能|配送不能|配信エラー|配送エラー|送信エラー|エラー通知|メールエラー|宛先不明|"
    r"challenge|please confirm|verify your (e-?mail|address|message)|認証してください|"
    r"送信確認|受信確認|spam ?(arrest|filter)|whitelist|complaint about|abuse report",
    re.IGNORECASE,
)
OUR_SUBJECT = re.compile(rf"【{SITE_NAME}[^】]*】([^：]*：)?")
# Local parts that only programs send from.
MACHINE_SENDERS = re.compile(
    r"^(mailer[-_]?daemon|post[-_]?master|no[-_.]?reply|do[-_.]?not[-_.]?reply|"
    r"bounces?|auto[-_]?(reply|responder|mailer)|mail[-_]?delivery[-_]?subsystem|"
    r"owner-.+|.+-(request|bounces?|owner))([-+].*)?$",  # and mailing lists' own addresses
    re.IGNORECASE,
)
# Headers only programs set: auto-replies, mailing lists, feedback loops, challenge/response
# systems, SES's and SNS's own notices. Not X-Auto-Response-Suppress: Outlook puts it on
# mail a person writes.
MACHINE_HEADERS = (
    "X-Autoreply",
    "X-Autorespond",
    "X-Auto-Reply",
    "X-Autoreply-From",
    "X-Vacation",
    "List-Id",
    "List-Unsubscribe",
    "Mailing-List",
    "X-Mailing-List",
    "X-ML-Name",
    "X-MLServer",
    "X-Failed-Recipients",
    "X-Loop",
    "X-TMDA-Fingerprint",
    "X-Delivery-Agent",
    "X-Boxbe-Challenge",
    "X-Spamarrest-Noauth",
    "X-Challenge",
    "Feedback-Type",
    "X-Amz-Sns-Message-Id",
)
# Parts only bounces, delivery and read reports and abuse reports carry.
REPORT_PARTS = {
    "multipart/report",
    "message/delivery-status",
    "message/global-delivery-status",
    "message/disposition-notification",
    "message/feedback-report",
    "text/rfc822-headers",
}


def machine_made(message: Message, sender: str) -> str | None:
    """Why a program, not the member, wrote this mail (never answered, never a receipt, never
    the member's access), or None."""
    auto = _header(message, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(message, "Precedence").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in MACHINE_HEADERS:
        if message[name] is not None:
            return name
    if "@" not in sender or MACHINE_SENDERS.match(sender.rpartition("@")[0]):
        return "bounce"
    if _header(message, "Return-Path").strip() == "<>":
        return "bounce"
    kinds = {part.get_content_type() for part in message.walk()}
    if kinds & REPORT_PARTS:
        return "bounce"
    subject = _header(message, "Subject")
    ours = OUR_SUBJECT.search(subject)  # the village's name in it is not read
    if AUTO_SUBJECT.search(subject[: ours.start()] + subject[ours.end() :] if ours else subject):
        return "auto-reply subject"
    return None


def _decode(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    return _text(payload, part.get_content_charset() or "us-ascii")


def body_text(message: Message) -> str:
    """The first text/plain part that is not an attachment; else the first text/html one, as
    text; else nothing."""
    plain = html = None
    for part in message.walk() if message.is_multipart() else [message]:
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = _decode(part)
        elif kind == "text/html" and html is None:
            html = _decode(part)
    if plain is not None:
        return plain
    return html_text(html) if html is not None else ""


class _Text(HTMLParser):
    """HTML to lines: blocks and <br> end lines; blockquotes (the quoted original) and what a
    reader never sees (style, script, head) are left out."""

    BREAKS: ClassVar = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "table", "hr"}
    HIDDEN: ClassVar = {"style", "script", "head", "title", "blockquote"}
    # A blockquote (the quoted original) stands as one ">" line, so that ``new_text`` reads
    # on below it (bottom posting), as under a plain-text quote.
    QUOTE = "\n>\n"

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            if tag == "blockquote" and not self.hidden:
                self.out.append(self.QUOTE)
            self.hidden += 1
        elif tag in self.BREAKS:
            self.out.append("\n")
        # Gmail and Outlook wrap the quoted original in a marked div: everything after it is
        # the quote (their own "On … wrote:" line is cut by new_text anyway).
        classes = dict(attrs).get("class") or ""
        ids = dict(attrs).get("id") or ""
        if "gmail_quote" in classes or ids in ("divRplyFwdMsg", "appendonsend"):
            self.out.append("\n\x00\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BREAKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(data)


def html_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return "".join(parser.out).partition("\x00")[0]


# Where a quoted original begins. mail-parser-reply's patterns come first (its "On … wrote:"
# and header blocks in 13 languages, decision 160); these add what it does not know: Japanese
# clients and carriers, header lines in any case or bold (``*From:*``), decorated or
# translated separators, and a head over several lines. Each matches one stripped NFKC line,
# or two or three of them joined by a space, with its decoration (``-``, ``_``, ``*``, ``=``)
# taken off.
_WROTE = (
    r"wrote|a écrit|schrieb|escribió|escreveu|scrisse|schreef|skrev|napisał|napsal|"
    r"kirjoitti|написал\(а\)|написал|написала|yazdı"
)
_DATED = r"^(\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})"
# Heads that begin distinctly, so that they may be folded over two or three lines.
FOLDED = [
    # "On <date>, <name> <address> wrote:", in a dozen languages, colon or decoration
    re.compile(
        rf"^(on|am|le|el|il|op|den|d\.|em|dnia|в|el día)\b.{{0,300}}\b({_WROTE})\b.{{0,150}}$", re.I
    ),
    # "<date> <name> <address>:" (Gmail in Japanese, carriers), "<date> <name> написал:"
    re.compile(rf"{_DATED}.{{0,300}}(\b({_WROTE})|書きました|のメール)?\s*[:：]$", re.I),
]
QUOTE_HEADS = [
    *FOLDED,
    re.compile(rf"^.{{0,300}}\b({_WROTE})\s*[:：]$", re.I),  # "Bob <b@x> wrote:" (Thunderbird)
    re.compile(r"^.{0,300}[はが]書きました[:：]?$"),  # 「〜さんは書きました:」Thunderbird, Becky!
    re.compile(r"^.{0,300}のメール[:：]$"),  # iPhone Mail (Japanese)
    # dated, timed and naming a zone or an address: "2016-03-03 17:21 GMT+01:00 Some One"
    re.compile(
        rf"{_DATED}[ T,(]+.{{0,12}}\d{{1,2}}:\d{{2}}\b.{{0,300}}"
        r"(GMT|UTC|JST|[+-]\d{2}:?\d{2}|[<@]).*$"
    ),
    re.compile(
        r"^(original message|元のメッセージ|オリジナルメッセージ|forwarded message|"
        r"転送メッセージ|転送されたメッセージ|返信元メッセージ|元のメール|"
        r"mensaje original|mensaje reenviado|message d'origine|message original|"
        r"message transféré|ursprüngliche nachricht|originalnachricht|weitergeleitete nachricht|"
        r"oorspronkelijk bericht|doorgestuurd bericht|originalmeddelande|opprinnelig melding|"
        r"oprindelig meddelelse|messaggio originale|messaggio inoltrato|mensagem original|"
        r"wiadomość oryginalna|původní zpráva|исходное сообщение|пересылаемое сообщение|"
        r"원본 메시지|原始邮件|原始郵件|begin forwarded message)\s*[:：]?$",
        re.I,
    ),
    # the first line of a header block of the original: From, in any case and language
    re.compile(
        r"^(from|von|de|van|från|fra|da|od|от|差出人|送信者|送信元|発信者|送信元アドレス)\s*[:：]\s*\S",
        re.I,
    ),
    re.compile(r"^_{10,}$"),  # Outlook's rule above that block
]
# A header block that starts with another header: two such lines in a row are the original.
HEADER_LINE = re.compile(
    r"^(from|date|sent|to|subject|cc|von|gesendet|an|betreff|datum|de|envoyé|à|objet|date|"
    r"van|verzonden|aan|onderwerp|från|skickat|till|ämne|fra|sendt|til|emne|da|inviato|a|"
    r"oggetto|enviado|para|asunto|assunto|od|wysłano|do|temat|от|отправлено|кому|тема|"
    r"差出人|送信者|送信元|送信日時|日時|日付|宛先|件名|発信者)\s*[:：]",
    re.I,
)
# A quoted line: ">" (and "> >"), "|", or Supercite's initials before ">" ("C> ").
QUOTED = re.compile(r"^([A-Za-z]{1,3})?[>|]")
_DECORATION = re.compile(r"^[-_*=~\s]+|[-_*=~\s]+$")
# A phone's or a webmail's line under what was written: its signature, without ``-- ``.
SENT_FROM = re.compile(r"^(sent from my .{1,40}|get outlook for .{1,40}|.{1,20}から送信)$", re.I)
LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "da", "pl", "cs", "ja", "ko", "zh"]


@cache
def _library_heads() -> "re.Pattern[str]":
    """mail-parser-reply's quote headers for every language it knows, compiled once, on the
    first reply read (its import is not paid by the functions that read none)."""
    from mailparser_reply.parser import EmailMessage

    return EmailMessage("", languages=LANGUAGES).HEADER_REGEX


HEAD_LINES = 4  # lines a quote head may take (Outlook's block is longer: its first lines do)
HEAD_WIDTH = 300  # characters of a line looked at for a head: the library's patterns are slow
# on long lines (a minute on one 20,000-character line), and no head is longer


def _head(lines: list[str], n: int) -> int | None:
    """The last line of the quote head that begins on line ``n``, or None."""
    window = "\n".join(line[:HEAD_WIDTH] for line in lines[n : n + HEAD_LINES])
    found = _library_heads().match(window)
    if found is not None and found.group().strip():
        return n + found.group().rstrip().count("\n")
    for span in (3, 2, 1):  # the longest head first: a line may begin a folded one
        # A head folded over lines: only those that begin distinctly, never over a blank.
        patterns = QUOTE_HEADS if span == 1 else FOLDED
        if n + span > len(lines) or not all(lines[n : n + span]):
            continue
        joined = " ".join(line[:HEAD_WIDTH] for line in lines[n : n + span])
        if any(p.match(j) for p in patterns for j in (joined, _DECORATION.sub("", joined))):
            return n + span - 1
    if HEADER_LINE.match(_strip_bold(lines[n])) and any(
        HEADER_LINE.match(_strip_bold(below)) for below in lines[n + 1 : n + 3]
    ):
        return n
    return None


def _strip_bold(line: str) -> str:
    return line.replace("*", "").strip()


def new_text(text: str) -> str:
    """Only what the person wrote: NFKC, without quoted lines (``>``), signatures (``-- ``,
    "Sent from my iPhone", up to the next quote), nor a quoted original that is not marked
    (Outlook's header block: the rest of the mail), at most ``MAX_LINES`` lines of it. A quote
    head followed by ``>`` lines is skipped, and reading goes on below the quote (bottom
    posting, answers between quoted paragraphs)."""
    lines = [
        line.strip()
        for line in unicodedata.normalize("NFKC", text[:MAX_TEXT]).replace("\r\n", "\n").split("\n")
    ]
    kept: list[str] = []
    signed = False  # in a signature: nothing is read until a quote ends it
    n = 0
    while n < len(lines) and len(kept) < MAX_LINES:
        line = lines[n]
        if not line or QUOTED.match(line):
            n += 1
            continue
        last = _head(lines, n)
        if last is None:
            signed = signed or line == "--" or SENT_FROM.match(line) is not None
            if not signed:
                kept.append(line)
            n += 1
            continue
        # A head folded past what its patterns saw ("… <" then "address>:") ends where the
        # ">" lines begin, if they begin within two lines.
        below = [m for m in range(last + 1, len(lines)) if lines[m]][:3]
        quoted = next((m for m in below if QUOTED.match(lines[m])), None)
        if quoted is None:
            break
        signed = False
        n = quoted
    return "\n".join(kept)


def as_sent_by(sender: str, to: str, text: str, at: datetime, message_id: str = "") -> bytes:
    """A plain reply as ``sender``'s own mail server hands it to SES, with the verdicts SES
    gives such mail: for the local inbox (decision 124) and the benchmarks, where nothing comes
    from outside."""
    host = sender.rpartition("@")[2]
    mail = EmailMessage()
    mail["Authentication-Results"] = (
        f"amazonses.com; spf=pass envelope-from={sender}; "
        f"dkim=pass header.i=@{host}; dmarc=pass header.from={host}"
    )
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = "Re: お知らせ"
    mail["Date"] = format_datetime(at)
    mail["Message-ID"] = message_id or make_msgid(domain=host)
    mail.set_content(text)
    return mail.as_bytes()
