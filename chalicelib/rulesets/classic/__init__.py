"""The classic rule set (RULES-CLASSIC, 人狼BBS式) behind the seam: its stored game, timeline,
GM options, seats, reports, views and words (``ruleset.CLASSIC``)."""
