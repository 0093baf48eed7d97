"""SES bounce and complaint notifications (through SNS): stop mail to that address."""

from typing import Any

from ..storage import accounts as store
from .accounts import normalize_email
from .errors import InvalidInput


def undeliverable_addresses(notification: dict[str, Any]) -> list[str]:
    """The addresses a notification says never to mail again: hard bounces and complaints."""
    kind = notification.get("notificationType") or notification.get("eventType")
    if kind == "Bounce":
        bounce = notification.get("bounce")
        if not isinstance(bounce, dict) or bounce.get("bounceType") != "Permanent":
            return []  # a soft bounce: the outbox retries
        recipients = bounce.get("bouncedRecipients")
    elif kind == "Complaint":
        complaint = notification.get("complaint")
        recipients = complaint.get("complainedRecipients") if isinstance(complaint, dict) else []
    else:
        return []
    if not isinstance(recipients, list):
        return []
    return [r["emailAddress"] for r in recipients if isinstance(r, dict) and r.get("emailAddress")]


def mark_undeliverable(notification: dict[str, Any]) -> list[str]:
    """Marks the accounts of those addresses; returns their ids."""
    marked = []
    for address in undeliverable_addresses(notification):
        try:
            email = normalize_email(address)
        except InvalidInput:
            continue
        owner = store.mark_undeliverable(email)
        if owner is not None:
            marked.append(owner)
    return marked
