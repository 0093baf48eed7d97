"""The classic rule set (RULES-CLASSIC, 人狼BBS式) behind the seam: its platform-facing state,
timeline, GM options and words. Not yet in ``rulesets.REGISTRY`` (see docs/decisions-classic.md)."""
